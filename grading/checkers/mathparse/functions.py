# ruff: noqa: RUF001 - Greek letters and maths symbols are the point here
"""The function registry: one entry per function, used by every part of the maths reader.

Each ``Function`` says how the function is spelled (its canonical name and aliases, matched
case-insensitively), how many arguments it takes, whether it may be written without brackets
(``sin x``) or with a power before its argument (``sin^2(x)``, and ``sin^-1(x)`` for its
inverse), and how to compute it: with floats (``real``, for sampling), with high precision
(``precise``, mpmath, for exact decisions), exactly (``exact``, rationals in, a rational or None
out), as a sympy object (``sympy``) and as LaTeX (``latex``). The reader (names, arity,
suggestions), the evaluators, the sympy builder and the renderers all read this table, so adding
a function is adding one entry (its evaluators, if new, in ``function_values.py``). ``domain``
and ``example`` document it (checkers/README.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from grading.checkers.mathparse import matrix_functions as mx
from grading.checkers.mathparse.function_values import (
    NAN,
    Exact,
    Real,
    exact_binomial,
    exact_cbrt,
    exact_ceil,
    exact_factorial,
    exact_floor,
    exact_if_zero,
    exact_ln,
    exact_root,
    exact_sign,
    exact_sqrt,
    guarded,
    p_acot,
    p_atan2,
    p_log,
    p_max,
    p_min,
    p_none,
    p_relu,
    p_root,
    p_sigmoid,
    p_softplus,
    real_acos,
    real_acosh,
    real_acot,
    real_asin,
    real_atan2,
    real_atanh,
    real_binomial,
    real_ceil,
    real_dot,
    real_factorial,
    real_floor,
    real_len,
    real_ln,
    real_log,
    real_max,
    real_mean,
    real_min,
    real_of_recip,
    real_recip,
    real_relu,
    real_root,
    real_sigmoid,
    real_sign,
    real_sinh,
    real_softplus,
    real_sqrt,
    real_sum,
    s_dot,
    s_len,
    s_log,
    s_mean,
    s_root,
    s_sum,
)

__all__ = [
    "ALIASES",
    "BUILTIN_FUNCTIONS",
    "FUNCTIONS",
    "LIST_FUNCTIONS",
    "OPT_IN",
    "Function",
    "find",
    "get",
    "lookup",
]

Latex = Callable[[Sequence[str], Sequence[bool]], str]


@dataclass(frozen=True)
class Function:
    """One function of the vocabulary (see the module docstring)."""

    name: str
    real: Real
    precise: Callable[..., Any]
    sympy: Callable[..., Any]
    latex: Latex
    aliases: tuple[str, ...] = ()
    min_args: int = 1
    max_args: int | None = 1
    exact: Exact | None = None
    parenless: bool = False
    powerable: bool = False
    inverse: str | None = None
    opt_in: tuple[str, ...] = ()
    reference_only: bool = False
    lists: bool = False
    postfix: bool = False
    complex_only: bool = False
    domain: str = "all real numbers"
    example: str = ""

    def arity_text(self) -> str:
        """'one argument', '2 arguments', '1 or 2 arguments', '2 or more arguments'."""
        low, high = self.min_args, self.max_args
        if high is None:
            return f"{low} or more arguments separated by commas"
        if low == high:
            return "one argument" if low == 1 else f"{low} arguments separated by commas"
        return f"{low} or {high} arguments"

    def accepts(self, count: int) -> bool:
        """Whether ``count`` arguments are allowed."""
        return count >= self.min_args and (self.max_args is None or count <= self.max_args)


# --------------------------------------------------------------------------- LaTeX helpers


def _command(head: str) -> Latex:
    """``\\sin\\left(x\\right)``; a plain word becomes ``\\operatorname{word}``."""
    if not head.startswith("\\"):
        head = r"\operatorname{" + head + "}"

    def render(args: Sequence[str], atomic: Sequence[bool]) -> str:
        return head + r"\left(" + ", ".join(args) + r"\right)"

    return render


def _latex_log(args: Sequence[str], atomic: Sequence[bool]) -> str:
    if len(args) == 1:
        return rf"\ln\left({args[0]}\right)"
    return rf"\log_{{{args[1]}}}\left({args[0]}\right)"


def _latex_root(args: Sequence[str], atomic: Sequence[bool]) -> str:
    return rf"\sqrt[{args[1]}]{{{args[0]}}}"


def _latex_factorial(args: Sequence[str], atomic: Sequence[bool]) -> str:
    inner = args[0] if atomic[0] else rf"\left({args[0]}\right)"
    return inner + "!"


def _fixed(template: str) -> Latex:
    def render(args: Sequence[str], atomic: Sequence[bool]) -> str:
        return template.format(*args)

    return render


# --------------------------------------------------------------------------- matrices


def _real_none(*args: Any) -> float:
    return NAN


def _matrix(name: str, sym: Any, *, aliases: tuple[str, ...] = (), low: int = 1,
            high: int | None = 1, latex: Latex | None = None, domain: str,
            example: str) -> Function:
    return Function(name, _real_none, p_none, sym, latex or _command(name), aliases=aliases,
                    min_args=low, max_args=high, reference_only=True, lists=True,
                    domain=domain, example=example)


def _real_arg(x: float) -> float:
    if x == 0:
        return NAN
    return 0.0 if x > 0 else math.pi


def _complex(name: str, real: Real, precise: Callable[..., Any], sym: Any, latex: Latex, *,
             aliases: tuple[str, ...], example: str) -> Function:
    return Function(name, real, precise, sym, latex, aliases=aliases, complex_only=True,
                    domain="complex numbers (parts with an imaginary_unit)", example=example)


# Parts of complex numbers (read only where the spec sets an imaginary_unit).
_COMPLEX_FUNCTIONS: tuple[Function, ...] = (
    _complex("re", guarded(lambda x: x), lambda c, x: c.re(x), sympy.re,
             _command(r"\operatorname{Re}"), aliases=("real",), example="Re(3 + 4i) = 3"),
    _complex("im", guarded(lambda x: 0.0), lambda c, x: c.im(x), sympy.im,
             _command(r"\operatorname{Im}"), aliases=("imag",), example="Im(3 + 4i) = 4"),
    _complex("arg", guarded(_real_arg), lambda c, x: c.arg(x), sympy.arg,
             _command(r"\arg"), aliases=("angle", "phase"), example="arg(i) = pi/2"),
    _complex("conj", guarded(lambda x: x), lambda c, x: c.conj(x), sympy.conjugate,
             _fixed(r"\overline{{{0}}}"), aliases=("conjugate",), example="conj(3 + 4i) = 3 - 4i"),
)


# References over matrix parameters (authors only; see matrix_functions.py).
_MATRIX_FUNCTIONS: tuple[Function, ...] = (
    _matrix("transpose", mx.m_transpose, aliases=("trans",),
            latex=_fixed(r"\left({0}\right)^{{\mathsf{{T}}}}"), domain="a matrix or a list",
            example="transpose(K)"),
    _matrix("inverse", mx.m_inverse, aliases=("inv",),
            latex=_fixed(r"\left({0}\right)^{{-1}}"), domain="a square invertible matrix",
            example="inverse(A)"),
    _matrix("det", mx.m_det, latex=_command(r"\det"), domain="a square matrix",
            example="det(A)"),
    _matrix("trace", mx.m_trace, aliases=("tr",), latex=_command(r"\operatorname{tr}"),
            domain="a square matrix", example="trace(A)"),
    _matrix("softmax", mx.m_softmax, high=2, domain="a matrix (each row; softmax(X, 0): "
            "each column) or a list", example="softmax(Q*transpose(K)/sqrt(d))"),
    _matrix("norm", mx.m_norm, high=2, domain="a vector or matrix; p = 1, 2 or oo",
            example="norm(v), norm(A, 1)"),
    _matrix("hadamard", mx.m_hadamard, low=2, high=2, domain="two matrices of one shape",
            example="hadamard(A, B)"),
    _matrix("outer", mx.m_outer, low=2, high=2, domain="two vectors", example="outer(u, v)"),
    _matrix("identity", mx.m_identity, aliases=("eye",), domain="n from 1 to 50",
            example="identity(3)"),
    _matrix("zeros", mx.m_zeros, high=2, domain="sizes from 1 to 50", example="zeros(2, 3)"),
    _matrix("ones", mx.m_ones, high=2, domain="sizes from 1 to 50", example="ones(2, 3)"),
)


# --------------------------------------------------------------------------- the table


def _trig(name: str, real: Real, precise: Callable[..., Any], sym: Any, latex: str, *,
          aliases: tuple[str, ...] = (), inverse: str | None = None, domain: str,
          example: str, exact: Exact | None = None) -> Function:
    return Function(name, guarded(real), precise, sym, _command(latex), aliases=aliases,
                    parenless=True, powerable=True, inverse=inverse, domain=domain,
                    example=example, exact=exact)


FUNCTIONS: tuple[Function, ...] = (
    # exponentials and logarithms
    Function("exp", guarded(math.exp), lambda c, x: c.exp(x), sympy.exp, _command(r"\exp"),
             parenless=True, powerable=True, exact=exact_if_zero(1),
             example="exp(0) = 1"),
    Function("ln", guarded(real_ln), lambda c, x: c.log(x), sympy.log, _command(r"\ln"),
             parenless=True, powerable=True, exact=exact_ln, domain="x > 0",
             example="ln(e) = 1"),
    Function("log", guarded(real_log), p_log, s_log, _latex_log, max_args=2, parenless=True,
             powerable=True, domain="x > 0; base b > 0, b ≠ 1",
             example="log(x) = ln(x); log(8, 2) = 3; log_2(8) = 3"),
    Function("log10", guarded(lambda x: math.log10(x) if x > 0 else NAN),
             lambda c, x: c.log10(x), lambda x: sympy.log(x, 10), _command(r"\log_{10}"),
             aliases=("log_10",), parenless=True, powerable=True, domain="x > 0",
             example="log10(1000) = 3"),
    Function("log2", guarded(lambda x: math.log2(x) if x > 0 else NAN),
             lambda c, x: c.log(x, 2), lambda x: sympy.log(x, 2), _command(r"\log_{2}"),
             aliases=("log_2",), parenless=True, powerable=True, domain="x > 0",
             example="log2(8) = 3"),
    # roots and powers
    Function("sqrt", guarded(real_sqrt), lambda c, x: c.sqrt(x), sympy.sqrt,
             _fixed(r"\sqrt{{{0}}}"), parenless=True, exact=exact_sqrt, domain="x ≥ 0",
             example="sqrt(16) = 4, also √16"),
    Function("cbrt", guarded(lambda x: real_root(x, 3.0)), lambda c, x: p_root(c, x, 3),
             lambda x: sympy.real_root(x, 3), _fixed(r"\sqrt[3]{{{0}}}"), parenless=True,
             exact=exact_cbrt, domain="all real numbers (cbrt(-8) = -2)",
             example="cbrt(27) = 3"),
    Function("root", guarded(real_root), p_root, s_root, _latex_root, min_args=2, max_args=2,
             exact=exact_root, domain="x ≥ 0, or x < 0 with an odd whole n",
             example="root(x, n) is the n-th root: root(32, 5) = 2"),
    # pieces
    Function("abs", guarded(abs), lambda c, x: abs(x), sympy.Abs,
             _fixed(r"\left|{0}\right|"), parenless=True, exact=abs,
             example="abs(-3) = 3, also |-3|"),
    Function("sign", guarded(real_sign), lambda c, x: c.sign(x), sympy.sign,
             _command(r"\operatorname{sgn}"), aliases=("sgn", "signum"), exact=exact_sign,
             example="sign(-2) = -1, sign(0) = 0"),
    Function("min", guarded(real_min), p_min, lambda *a: sympy.Min(*a), _command(r"\min"),
             min_args=2, max_args=None, exact=lambda *a: min(a),
             example="min(3, 1, 2) = 1"),
    Function("max", guarded(real_max), p_max, lambda *a: sympy.Max(*a), _command(r"\max"),
             min_args=2, max_args=None, exact=lambda *a: max(a),
             example="max(3, 1, 2) = 3"),
    Function("floor", guarded(real_floor), lambda c, x: c.floor(x), sympy.floor,
             _fixed(r"\left\lfloor {0} \right\rfloor"), exact=exact_floor,
             example="floor(2.7) = 2, floor(-2.5) = -3"),
    Function("ceil", guarded(real_ceil), lambda c, x: c.ceil(x), sympy.ceiling,
             _fixed(r"\left\lceil {0} \right\rceil"), aliases=("ceiling",), exact=exact_ceil,
             example="ceil(2.1) = 3"),
    # counting
    Function("factorial", guarded(real_factorial), lambda c, x: c.factorial(x), sympy.factorial,
             _latex_factorial, postfix=True, exact=exact_factorial,
             domain="x ≠ -1, -2, ... (Γ(x+1) between whole numbers)",
             example="5! = factorial(5) = 120; 0! = 1"),
    Function("binomial", guarded(real_binomial), lambda c, n, k: c.binomial(n, k),
             sympy.binomial, _fixed(r"\binom{{{0}}}{{{1}}}"), aliases=("nCr", "choose"),
             min_args=2, max_args=2, exact=exact_binomial,
             example="binomial(5, 2) = nCr(5, 2) = 10"),
    # trigonometric
    _trig("sin", math.sin, lambda c, x: c.sin(x), sympy.sin, r"\sin", inverse="asin",
          domain="all real numbers (radians)", example="sin(pi/2) = 1",
          exact=exact_if_zero(0)),
    _trig("cos", math.cos, lambda c, x: c.cos(x), sympy.cos, r"\cos", inverse="acos",
          domain="all real numbers (radians)", example="cos(0) = 1",
          exact=exact_if_zero(1)),
    _trig("tan", math.tan, lambda c, x: c.tan(x), sympy.tan, r"\tan", inverse="atan",
          domain="x ≠ pi/2 + k pi", example="tan(pi/4) = 1", exact=exact_if_zero(0)),
    _trig("sec", real_recip(math.cos), lambda c, x: c.sec(x), sympy.sec, r"\sec",
          inverse="asec", domain="x ≠ pi/2 + k pi", example="sec(x) = 1/cos(x)"),
    _trig("csc", real_recip(math.sin), lambda c, x: c.csc(x), sympy.csc, r"\csc",
          aliases=("cosec",), inverse="acsc", domain="x ≠ k pi",
          example="csc(x) = cosec(x) = 1/sin(x)"),
    _trig("cot", real_recip(math.tan), lambda c, x: c.cot(x), sympy.cot, r"\cot",
          aliases=("cotan",), inverse="acot", domain="x ≠ k pi",
          example="cot(x) = cos(x)/sin(x)"),
    _trig("asin", real_asin, lambda c, x: c.asin(x), sympy.asin, r"\arcsin",
          aliases=("arcsin",), inverse="sin", domain="-1 ≤ x ≤ 1",
          example="asin(1) = arcsin(1) = pi/2", exact=exact_if_zero(0)),
    _trig("acos", real_acos, lambda c, x: c.acos(x), sympy.acos, r"\arccos",
          aliases=("arccos",), inverse="cos", domain="-1 ≤ x ≤ 1",
          example="acos(1) = arccos(1) = 0"),
    _trig("atan", math.atan, lambda c, x: c.atan(x), sympy.atan, r"\arctan",
          aliases=("arctan",), inverse="tan", domain="all real numbers",
          example="atan(1) = arctan(1) = pi/4", exact=exact_if_zero(0)),
    _trig("asec", real_of_recip(real_acos), lambda c, x: c.asec(x), sympy.asec, "arcsec",
          aliases=("arcsec",), inverse="sec", domain="|x| ≥ 1",
          example="asec(2) = acos(1/2) = pi/3"),
    _trig("acsc", real_of_recip(real_asin), lambda c, x: c.acsc(x), sympy.acsc, "arccsc",
          aliases=("arccsc", "acosec", "arccosec"), inverse="csc", domain="|x| ≥ 1",
          example="acsc(2) = asin(1/2) = pi/6"),
    _trig("acot", real_acot, p_acot, sympy.acot, "arccot", aliases=("arccot", "arccotan"),
          inverse="cot", domain="all real numbers (acot(x) = atan(1/x), acot(0) = pi/2)",
          example="acot(1) = pi/4"),
    Function("atan2", guarded(real_atan2), p_atan2, sympy.atan2, _command("atan2"),
             aliases=("arctan2",), min_args=2, max_args=2, domain="(y, x) ≠ (0, 0)",
             example="atan2(y, x): the angle of the point (x, y); atan2(1, -1) = 3pi/4"),
    # hyperbolic
    _trig("sinh", real_sinh, lambda c, x: c.sinh(x), sympy.sinh, r"\sinh", inverse="asinh",
          domain="all real numbers", example="sinh(0) = 0", exact=exact_if_zero(0)),
    _trig("cosh", math.cosh, lambda c, x: c.cosh(x), sympy.cosh, r"\cosh", inverse="acosh",
          domain="all real numbers", example="cosh(0) = 1", exact=exact_if_zero(1)),
    _trig("tanh", math.tanh, lambda c, x: c.tanh(x), sympy.tanh, r"\tanh", inverse="atanh",
          domain="all real numbers", example="tanh(0) = 0", exact=exact_if_zero(0)),
    _trig("sech", real_recip(math.cosh), lambda c, x: c.sech(x), sympy.sech, "sech",
          inverse="asech", domain="all real numbers", example="sech(x) = 1/cosh(x)"),
    _trig("csch", real_recip(real_sinh), lambda c, x: c.csch(x), sympy.csch, "csch",
          aliases=("cosech",), inverse="acsch", domain="x ≠ 0",
          example="csch(x) = cosech(x) = 1/sinh(x)"),
    _trig("coth", real_recip(math.tanh), lambda c, x: c.coth(x), sympy.coth, r"\coth",
          inverse="acoth", domain="x ≠ 0", example="coth(x) = cosh(x)/sinh(x)"),
    _trig("asinh", math.asinh, lambda c, x: c.asinh(x), sympy.asinh, "arsinh",
          aliases=("arsinh", "arcsinh", "argsinh"), inverse="sinh",
          domain="all real numbers", example="asinh(0) = arsinh(0) = 0",
          exact=exact_if_zero(0)),
    _trig("acosh", real_acosh, lambda c, x: c.acosh(x), sympy.acosh, "arcosh",
          aliases=("arcosh", "arccosh", "argcosh"), inverse="cosh", domain="x ≥ 1",
          example="acosh(1) = arcosh(1) = 0"),
    _trig("atanh", real_atanh, lambda c, x: c.atanh(x), sympy.atanh, "artanh",
          aliases=("artanh", "arctanh", "argtanh"), inverse="tanh", domain="-1 < x < 1",
          example="atanh(0) = artanh(0) = 0", exact=exact_if_zero(0)),
    _trig("asech", real_of_recip(real_acosh), lambda c, x: c.asech(x), sympy.asech, "arsech",
          aliases=("arsech", "arcsech"), inverse="sech", domain="0 < x ≤ 1",
          example="asech(1) = 0"),
    _trig("acsch", real_of_recip(math.asinh), lambda c, x: c.acsch(x), sympy.acsch, "arcsch",
          aliases=("arcsch", "arccsch", "arcosech", "acosech"), inverse="csch",
          domain="x ≠ 0", example="acsch(x) = asinh(1/x)"),
    _trig("acoth", real_of_recip(real_atanh), lambda c, x: c.acoth(x), sympy.acoth, "arcoth",
          aliases=("arcoth", "arccoth"), inverse="coth", domain="|x| > 1",
          example="acoth(x) = atanh(1/x)"),
    # machine learning
    Function("sigmoid", guarded(real_sigmoid), p_sigmoid, lambda x: 1 / (1 + sympy.exp(-x)),
             _command(r"\sigma"), aliases=("logistic",), opt_in=("sigma",),
             example="sigmoid(0) = 1/2; σ(x) only where the spec declares σ a function"),
    Function("relu", guarded(real_relu), p_relu, lambda x: sympy.Max(0, x), _command("ReLU"),
             exact=lambda x: max(Fraction(0), x), example="relu(-2) = 0, relu(3) = 3"),
    Function("softplus", guarded(real_softplus), p_softplus,
             lambda x: sympy.log(1 + sympy.exp(x)), _command("softplus"),
             example="softplus(x) = ln(1 + e^x)"),
    # references over list parameters (authors only)
    Function("dot", real_dot, p_none, s_dot, _command("dot"), min_args=2, max_args=2,
             reference_only=True, lists=True, domain="two lists of the same length",
             example="dot(w, h) = w1 h1 + w2 h2 + ..."),
    Function("sum", real_sum, p_none, s_sum, _command("sum"), reference_only=True,
             lists=True, domain="a list", example="sum(w)"),
    Function("mean", real_mean, p_none, s_mean, _command("mean"), reference_only=True,
             lists=True, domain="a non-empty list", example="mean(h)"),
    Function("len", real_len, p_none, s_len, _command("len"), reference_only=True,
             lists=True, domain="a list", example="len(h)"),
    *_MATRIX_FUNCTIONS,
    *_COMPLEX_FUNCTIONS,
)

_BY_NAME: dict[str, Function] = {f.name: f for f in FUNCTIONS}

#: Every spelling (lowercase) of a function anyone may type, to its canonical name.
ALIASES: Mapping[str, str] = {
    spelling.lower(): f.name for f in FUNCTIONS for spelling in (f.name, *f.aliases)
}
#: Spellings that mean a built-in function only where a spec declares them as functions.
OPT_IN: Mapping[str, str] = {spelling: f.name for f in FUNCTIONS for spelling in f.opt_in}
#: Canonical names of the functions students may use (for compatibility and suggestions).
BUILTIN_FUNCTIONS: frozenset[str] = frozenset(f.name for f in FUNCTIONS
                                              if not f.reference_only and not f.complex_only)
#: Functions over list parameters (authors' references only), with their arity.
LIST_FUNCTIONS: Mapping[str, int] = {f.name: f.min_args for f in FUNCTIONS if f.lists}


def lookup(name: str) -> Function | None:
    """The function a canonical name or alias (any case) stands for, or None."""
    canonical = ALIASES.get(name.lower())
    return _BY_NAME[canonical] if canonical is not None else None


def get(name: str) -> Function:
    """The function with canonical name ``name`` (KeyError if there is none)."""
    return _BY_NAME[name]


def find(name: str) -> Function | None:
    """The function with canonical name ``name``, or None (a declared function)."""
    return _BY_NAME.get(name)
