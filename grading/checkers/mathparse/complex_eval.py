"""Evaluation over the complex numbers, for parts with an ``imaginary_unit``.

``complex_evaluate(expr, env)`` computes a tree exactly with Gaussian rationals (pairs of
Fractions) while it can (``(1+2i)^2 = -3+4i``, ``1/(1+i) = 1/2 - i/2``) and with mpmath
complex numbers at 50 significant digits at the first irrational step. Functions take their
principal values (``sqrt(-4) = 2i``, ``ln(-1) = iπ``, ``(-8)^(1/3) = 1 + √3 i``); ``Re``,
``Im``, ``abs``, ``arg`` (in (-π, π]) and ``conj`` are the complex ones. It returns a
``ComplexValue`` or None (undefined: a division by zero, a pole; or beyond the size bounds).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.exact import bits
from grading.checkers.mathparse.expr import Expr
from grading.checkers.mathparse.function_values import exact_root
from grading.checkers.mathparse.nodes import Abs, BinOp, Call, Const, Neg, Node, Num, Pow, Var
from grading.checkers.mathparse.precise import context

__all__ = ["IMAGINARY_UNITS", "ComplexValue", "complex_close", "complex_evaluate"]

IMAGINARY_UNITS = ("i", "j")
DIGITS = 50
_EXACT_BITS = 20_000
_MAX_MAG = 1 << 20
# Functions whose mpmath form is defined on the complex plane (principal branches).
_COMPLEX = {
    "exp": "exp", "ln": "log", "sqrt": "sqrt", "sin": "sin", "cos": "cos", "tan": "tan",
    "sec": "sec", "csc": "csc", "cot": "cot", "asin": "asin", "acos": "acos", "atan": "atan",
    "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "asinh", "acosh": "acosh",
    "atanh": "atanh", "sech": "sech", "csch": "csch", "coth": "coth", "cbrt": "cbrt",
}


class _Undefined(Exception):
    pass


@dataclass(frozen=True)
class ComplexValue:
    """A complex value: exact (``real``, ``imag`` Fractions) or an mpmath ``mpc``."""

    real: Fraction | None = None
    imag: Fraction | None = None
    approx: Any = None

    @property
    def exact(self) -> bool:
        """True for a Gaussian rational."""
        return self.approx is None

    def mpc(self, ctx: Any) -> Any:
        """The value as an mpmath complex number."""
        if self.approx is not None:
            return self.approx
        assert self.real is not None and self.imag is not None  # noqa: S101 - exact value
        return ctx.mpc(ctx.mpf(self.real.numerator) / self.real.denominator,
                       ctx.mpf(self.imag.numerator) / self.imag.denominator)

    def parts(self) -> tuple[float, float]:
        """(real part, imaginary part) as floats, for display."""
        ctx = context(DIGITS)
        value = self.mpc(ctx)
        return float(value.real), float(value.imag)


_Exact = tuple[Fraction, Fraction]


class _Evaluator:
    def __init__(self, env: Mapping[str, Any]) -> None:
        self.ctx = context(DIGITS)
        self.env = env

    def mp(self, value: Any) -> Any:
        if isinstance(value, tuple):
            re, im = value
            return self.ctx.mpc(self.ctx.mpf(re.numerator) / re.denominator,
                                self.ctx.mpf(im.numerator) / im.denominator)
        return value

    def checked(self, value: Any) -> Any:
        ctx = self.ctx
        if isinstance(value, tuple):
            if max(bits(value[0]), bits(value[1])) > _EXACT_BITS:
                return self.checked(self.mp(value))
            return value
        value = ctx.mpc(value)
        if ctx.isnan(value.real) or ctx.isnan(value.imag) or ctx.isinf(value.real) \
                or ctx.isinf(value.imag):
            raise _Undefined
        if value != 0 and ctx.mag(value) > _MAX_MAG:
            raise _Undefined
        return value

    def value(self, node: Node) -> Any:
        if isinstance(node, Num):
            return (node.value, Fraction(0))
        if isinstance(node, Var):
            value = self.env.get(node.name)
            if value is None or isinstance(value, list | tuple):
                raise _Undefined
            if isinstance(value, int | Fraction):
                return (Fraction(value), Fraction(0))
            if isinstance(value, float):
                return (Fraction(repr(value)), Fraction(0))
            return self.checked(value)
        if isinstance(node, Const):
            if node.name in IMAGINARY_UNITS:
                return (Fraction(0), Fraction(1))
            if node.name == "oo":
                raise _Undefined
            return self.checked(self.ctx.mpc(self.ctx.pi if node.name == "pi" else self.ctx.e))
        if isinstance(node, Neg):
            inner = self.value(node.operand)
            return (-inner[0], -inner[1]) if isinstance(inner, tuple) else -inner
        if isinstance(node, Abs):
            return self.modulus(self.value(node.operand))
        if isinstance(node, BinOp):
            return self.binop(node.op, self.value(node.left), self.value(node.right))
        if isinstance(node, Pow):
            return self.power(self.value(node.base), self.value(node.exponent))
        return self.call(node)

    def modulus(self, value: Any) -> Any:
        if isinstance(value, tuple):
            square = value[0] ** 2 + value[1] ** 2
            root = exact_root(square, Fraction(2)) if square >= 0 else None
            if root is not None:
                return (root, Fraction(0))
        return self.checked(self.ctx.mpc(abs(self.mp(value))))

    def binop(self, op: str, a: Any, b: Any) -> Any:
        if isinstance(a, tuple) and isinstance(b, tuple):
            (p, q), (r, s) = a, b
            if op == "+":
                return self.checked((p + r, q + s))
            if op == "-":
                return self.checked((p - r, q - s))
            if op == "*":
                return self.checked((p * r - q * s, p * s + q * r))
            norm = r * r + s * s
            if norm == 0:
                raise _Undefined
            return self.checked(((p * r + q * s) / norm, (q * r - p * s) / norm))
        x, y = self.mp(a), self.mp(b)
        if op == "/" and y == 0:
            raise _Undefined
        result = {"+": lambda: x + y, "-": lambda: x - y, "*": lambda: x * y,
                  "/": lambda: x / y}[op]()
        return self.checked(result)

    def power(self, base: Any, exponent: Any) -> Any:
        ctx = self.ctx
        if isinstance(exponent, tuple) and exponent[1] == 0 \
                and exponent[0].denominator == 1 and isinstance(base, tuple):
            n = int(exponent[0])
            if base == (0, 0):
                if n < 0:
                    raise _Undefined
                return (Fraction(1 if n == 0 else 0), Fraction(0))
            size = max(bits(base[0]), bits(base[1]), 1) * abs(n)
            if size <= _EXACT_BITS:
                result: Any = (Fraction(1), Fraction(0))
                square, k = base, abs(n)
                while k:
                    if k & 1:
                        result = self.binop("*", result, square)
                    square = self.binop("*", square, square) if k > 1 else square
                    k >>= 1
                return self.binop("/", (Fraction(1), Fraction(0)), result) if n < 0 else result
        b, e = self.mp(base), self.mp(exponent)
        if b == 0:
            if e.real <= 0:
                raise _Undefined
            return (Fraction(0), Fraction(0))
        growth = abs(e) * max(1, abs(ctx.log(abs(b)))) if b != 0 else 0
        if growth > _MAX_MAG:
            raise _Undefined
        return self.checked(ctx.power(b, e))

    def call(self, node: Call) -> Any:
        args = [self.value(arg) for arg in node.args]
        ctx = self.ctx
        name = node.func
        if name in ("re", "im", "conj"):
            (z,) = args
            if isinstance(z, tuple):
                return {"re": (z[0], Fraction(0)), "im": (z[1], Fraction(0)),
                        "conj": (z[0], -z[1])}[name]
            value = {"re": ctx.mpc(z.real), "im": ctx.mpc(z.imag),
                     "conj": ctx.conj(z)}[name]
            return self.checked(value)
        if name == "arg":
            (z,) = args
            if (z == (0, 0)) if isinstance(z, tuple) else z == 0:
                raise _Undefined
            return self.checked(ctx.mpc(ctx.arg(self.mp(z))))
        if name == "abs":
            return self.modulus(args[0])
        if name == "log" and len(args) == 2:
            base = ctx.log(self.mp(args[1]))
            if base == 0:
                raise _Undefined
            return self.checked(ctx.log(self.mp(args[0])) / base)
        if name in _COMPLEX and len(args) == 1:
            method = _COMPLEX[name]
            z = self.mp(args[0])
            if not isinstance(args[0], tuple) and ctx.mag(z) > 4096:
                raise _Undefined
            if name == "cbrt" and z.imag == 0:
                real = z.real
                root = ctx.cbrt(abs(real))
                return self.checked(ctx.mpc(-root if real < 0 else root))
            try:
                return self.checked(getattr(ctx, method)(z))
            except (ValueError, ZeroDivisionError):
                raise _Undefined from None
        # Other functions (min, floor, factorial, ...) only on real arguments.
        fn = registry.find(name)
        real_args = []
        for arg in args:
            value = self.mp(arg)
            if value.imag != 0 or fn is None or fn.lists:
                raise _Undefined
            real_args.append(value.real)
        assert fn is not None  # noqa: S101 - checked above
        try:
            result = fn.precise(ctx, *real_args)
        except (ValueError, ZeroDivisionError, TypeError, OverflowError):
            raise _Undefined from None
        return self.checked(ctx.mpc(result))


def complex_evaluate(expr: Expr | Node, env: Mapping[str, Any] | None = None) -> ComplexValue | None:
    """The complex value of ``expr`` with ``env`` (names to numbers), or None if undefined."""
    node = expr.node if isinstance(expr, Expr) else expr
    evaluator = _Evaluator(env or {})
    try:
        value = evaluator.value(node)
    except (_Undefined, ValueError, ZeroDivisionError, TypeError, OverflowError,
            RecursionError):
        return None
    if isinstance(value, tuple):
        return ComplexValue(value[0], value[1])
    return ComplexValue(approx=value)


def complex_close(a: ComplexValue, b: ComplexValue, *, rtol: float | None = None,
                  atol: float | None = None) -> bool:
    """|a - b| ≤ max(rtol·|b|, atol); exact values with no tolerance compare exactly, and
    values computed through irrationals agree within 40 significant digits."""
    if a.exact and b.exact and rtol is None and atol is None:
        return (a.real, a.imag) == (b.real, b.imag)
    ctx = context(DIGITS)
    x, y = a.mpc(ctx), b.mpc(ctx)
    bound = ctx.mpf(10) ** -40 * max(abs(x), abs(y), 1e-300)
    if rtol is not None:
        bound = max(bound, ctx.mpf(rtol) * abs(y))
    if atol is not None:
        bound = max(bound, ctx.mpf(atol))
    return bool(abs(x - y) <= bound)
