"""High-precision evaluation of a tree: exact where it can be, mpmath where it cannot.

``precise_evaluate(expr, env, functions, digits=...)`` computes with ``Fraction`` while the
values stay rational and small (numbers, parameters and sample points are rationals), and
switches to mpmath numbers with ``digits`` significant digits at the first irrational step.
It returns a ``PreciseValue`` (the value, and the magnitude of the largest inexact
intermediate, which bounds the rounding error), or ``UNDEFINED`` (outside a function's domain:
a complex result, a division by zero) or ``OVERFLOW`` (a magnitude beyond 2^(2^24), or an
argument so large that computing with it would be slow). ``precise_equal`` compares two
results: exactly when both are rational, else within a rounding bound far below any
difference a decimal of ``digits`` digits can express.

Used to decide what float sampling cannot: decimals that differ from the reference beyond
double precision (``0.6666666667`` is not ``2/3``), polynomials with huge coefficients,
catastrophic cancellation (``sqrt(10^14+1) - 10^7``) and powers far out of float range
(``(x-b)^4000``). The mpmath context is per thread, so concurrent requests do not interfere.
"""

from __future__ import annotations

import enum
import math
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.exact import bits, exact_call, exact_pow
from grading.checkers.mathparse.expr import Expr
from grading.checkers.mathparse.nodes import Abs, BinOp, Call, Const, Neg, Node, Num, Pow, Var, walk

__all__ = [
    "DEFAULT_DIGITS",
    "OVERFLOW",
    "UNDEFINED",
    "PreciseValue",
    "Unavailable",
    "context",
    "literal_digits",
    "precise_closeness",
    "precise_equal",
    "precise_evaluate",
    "to_fraction",
]

DEFAULT_DIGITS = 50
_EXACT_BITS = 30_000  # rationals larger than this continue as mpmath numbers
_MAX_MAG = 1 << 24  # |value| < 2^(2^24): beyond is OVERFLOW
_MAX_ARG_MAG = 4096  # arguments beyond 2^4096 are OVERFLOW (argument reduction would be slow)
_MAX_GROWTH_MAG = 24  # exp, sinh, cosh, factorial... of more than 2^24 are OVERFLOW
_GROWTH = frozenset({"exp", "sinh", "cosh", "factorial", "binomial", "softplus", "sech",
                     "csch"})

_LOCAL = threading.local()
_MPF = mpmath.ctx_mp_python._mpf
_MPC = mpmath.ctx_mp_python._mpc


class Unavailable(enum.Enum):
    """Why a point has no precise value."""

    UNDEFINED = "undefined"
    OVERFLOW = "overflow"


UNDEFINED = Unavailable.UNDEFINED
OVERFLOW = Unavailable.OVERFLOW


class _Stop(Exception):
    def __init__(self, reason: Unavailable) -> None:
        super().__init__(reason.value)
        self.reason = reason


@dataclass(frozen=True)
class PreciseValue:
    """A value (``Fraction`` when exact, else an mpmath number) and ``scale``: the binary
    magnitude of the largest inexact intermediate value (None when everything was exact)."""

    value: Any
    scale: int | None = None

    @property
    def exact(self) -> bool:
        """True when the value is an exact rational."""
        return isinstance(self.value, Fraction)


def context(digits: int = DEFAULT_DIGITS) -> Any:
    """This thread's mpmath context, set to ``digits`` significant digits."""
    ctx = getattr(_LOCAL, "ctx", None)
    if ctx is None:
        ctx = mpmath.MPContext()
        _LOCAL.ctx = ctx
    ctx.dps = digits
    return ctx


def to_fraction(value: Any) -> Fraction:
    """An exact Fraction for a finite mpmath number (its binary value) or a Fraction."""
    if isinstance(value, Fraction):
        return value
    sign, man, exp, _ = value._mpf_  # man_exp drops the sign: -1.5 would read as 1.5
    magnitude = Fraction(man) * (Fraction(2) ** exp)
    return -magnitude if sign else magnitude


def literal_digits(*exprs: Expr | Node) -> int:
    """The most significant digits written in any number literal of ``exprs``."""
    most = 0
    for expr in exprs:
        node = expr.node if isinstance(expr, Expr) else expr
        for item in walk(node):
            if isinstance(item, Num):
                mantissa = item.text.split("e")[0].replace(".", "").lstrip("0")
                most = max(most, len(mantissa))
    return most


class _Evaluator:
    def __init__(self, ctx: Any, env: Mapping[str, Any],
                 functions: Mapping[str, Callable[..., Any]]) -> None:
        self.ctx = ctx
        self.env = env
        self.functions = functions
        self.scale: int | None = None

    # -- conversions and checks
    def mp(self, value: Any) -> Any:
        if isinstance(value, Fraction):
            value = self.ctx.mpf(value.numerator) / value.denominator
        return value

    def inexact(self, value: Any) -> Any:
        ctx = self.ctx
        if isinstance(value, _MPC):
            if value.imag != 0:
                raise _Stop(UNDEFINED)
            value = value.real
        elif not isinstance(value, _MPF):
            value = ctx.mpf(value)
        if ctx.isnan(value):
            raise _Stop(UNDEFINED)
        if ctx.isinf(value):
            return value
        mag = ctx.mag(value)
        if mag > _MAX_MAG:
            raise _Stop(OVERFLOW)
        if value != 0 and (self.scale is None or mag > self.scale):
            self.scale = int(mag)
        return value

    def exact_or_mp(self, value: Fraction) -> Any:
        if bits(value) <= _EXACT_BITS:
            return value
        return self.inexact(self.mp(value))

    # -- the tree
    def value(self, node: Node) -> Any:
        if isinstance(node, Num):
            return node.value
        if isinstance(node, Var):
            value = self.env.get(node.name)
            if value is None or isinstance(value, list | tuple):
                raise _Stop(UNDEFINED)
            if isinstance(value, int | Fraction):
                return Fraction(value)
            if isinstance(value, float):
                return Fraction(repr(value))
            return self.inexact(value)
        if isinstance(node, Const):
            if node.name == "oo":
                return self.ctx.inf
            return self.inexact(self.ctx.pi if node.name == "pi" else self.ctx.e)
        if isinstance(node, Neg):
            return -self.value(node.operand)
        if isinstance(node, Abs):
            return abs(self.value(node.operand))
        if isinstance(node, BinOp):
            return self.binop(node.op, self.value(node.left), self.value(node.right))
        if isinstance(node, Pow):
            return self.power(self.value(node.base), self.value(node.exponent))
        return self.call(node)

    def binop(self, op: str, a: Any, b: Any) -> Any:
        if op == "/" and b == 0:
            raise _Stop(UNDEFINED)
        if isinstance(a, Fraction) and isinstance(b, Fraction):
            if op == "+":
                return self.exact_or_mp(a + b)
            if op == "-":
                return self.exact_or_mp(a - b)
            if op == "*":
                return self.exact_or_mp(a * b)
            return self.exact_or_mp(a / b)
        a, b = self.mp(a), self.mp(b)
        if op == "+":
            return self.inexact(a + b)
        if op == "-":
            return self.inexact(a - b)
        if op == "*":
            return self.inexact(a * b)
        return self.inexact(a / b)

    def power(self, base: Any, exponent: Any) -> Any:
        ctx = self.ctx
        if base == 0:
            if exponent < 0:
                raise _Stop(UNDEFINED)
            return Fraction(1) if exponent == 0 else Fraction(0)
        whole = exponent.denominator == 1 if isinstance(exponent, Fraction) \
            else bool(ctx.isint(exponent))
        if base < 0 and not whole:
            raise _Stop(UNDEFINED)  # real powers: a negative base needs a whole exponent
        if isinstance(exponent, Fraction) and isinstance(base, Fraction) \
                and bits(base) * abs(exponent.numerator) <= _EXACT_BITS:
            result = exact_pow(base, exponent, max_exponent=1 << 30)
            if result is not None:
                return result
        b, e = self.inexact(self.mp(base)), self.mp(exponent)
        if not ctx.isinf(b) and not ctx.isinf(e):
            growth = abs(e) * abs(ctx.mag(b) if abs(b) >= 1 else ctx.mag(1 / b))
            if growth > _MAX_MAG:
                raise _Stop(OVERFLOW)
        if base < 0:
            magnitude = ctx.power(-b, e)
            return self.inexact(-magnitude if int(e) % 2 == 1 else magnitude)
        return self.inexact(ctx.power(b, e))

    def call(self, node: Call) -> Any:
        args = [self.value(arg) for arg in node.args]
        fn = registry.find(node.func)
        if fn is None:
            impl = self.functions.get(node.func)
            if impl is None:
                raise _Stop(UNDEFINED)
            return self.apply(impl, args, growth=False)
        if fn.lists:
            raise _Stop(UNDEFINED)
        if all(isinstance(a, Fraction) for a in args) and fn.exact is not None:
            exact = exact_call(fn.name, args)
            if exact is not None:
                return exact
        return self.apply(fn.precise, args, growth=fn.name in _GROWTH)

    def apply(self, impl: Callable[..., Any], args: list[Any], *, growth: bool) -> Any:
        ctx = self.ctx
        values = [self.inexact(self.mp(a)) for a in args]
        limit = _MAX_GROWTH_MAG if growth else _MAX_ARG_MAG
        if any(not ctx.isinf(v) and v != 0 and ctx.mag(v) > limit for v in values):
            raise _Stop(OVERFLOW)
        try:
            result = impl(ctx, *values)
        except (ValueError, ZeroDivisionError, TypeError, OverflowError):
            raise _Stop(UNDEFINED) from None
        return self.inexact(result)


def precise_evaluate(
    expr: Expr | Node,
    env: Mapping[str, Any],
    functions: Mapping[str, Callable[..., Any]] | None = None,
    *,
    digits: int = DEFAULT_DIGITS,
) -> PreciseValue | Unavailable:
    """The value of ``expr`` at ``env`` (see the module docstring); never raises.

    ``env`` maps names to ints, Fractions, floats (taken as their shortest decimal, as
    parameters are) or mpmath numbers. ``functions`` maps declared function names to
    callables ``(ctx, *mpf) -> mpf``.
    """
    node = expr.node if isinstance(expr, Expr) else expr
    ctx = context(digits)
    evaluator = _Evaluator(ctx, env, functions or {})
    try:
        value = evaluator.value(node)
        if not isinstance(value, Fraction):
            value = evaluator.inexact(value)
    except _Stop as stop:
        return stop.reason
    except (ValueError, ZeroDivisionError, TypeError, OverflowError, RecursionError):
        return UNDEFINED
    return PreciseValue(value, evaluator.scale)


def precise_closeness(a: PreciseValue, b: PreciseValue, *,
                      digits: int = DEFAULT_DIGITS) -> float:
    """|a - b| as a multiple of the rounding bound of ``digits``-digit arithmetic (see
    precise_equal): 0 for equal exact values, at most about 1e-9 for values equal up to
    rounding, above 1 for values that differ, ``inf`` for different exact values."""
    if a.exact and b.exact:
        return 0.0 if a.value == b.value else math.inf
    ctx = context(digits + 10)
    x, y = _mpf(ctx, a.value), _mpf(ctx, b.value)
    if ctx.isinf(x) or ctx.isinf(y):
        return 0.0 if x == y else math.inf
    magnitudes = [s for s in (a.scale, b.scale) if s is not None]
    magnitudes += [int(ctx.mag(v)) for v in (x, y) if v != 0]
    if not magnitudes:
        return 0.0 if x == y else math.inf
    bound = ctx.ldexp(ctx.mpf(10) ** (12 - digits), max(magnitudes))
    return float(abs(x - y) / bound)


def precise_equal(a: PreciseValue, b: PreciseValue, *, digits: int = DEFAULT_DIGITS,
                  rtol: float | None = None, atol: float | None = None) -> bool:
    """Whether two precise values are equal: exactly when both are rational (and no
    tolerance is given), else within the rounding bound of ``digits``-digit arithmetic
    scaled by the largest inexact intermediate, or within ``rtol``/``atol`` if given."""
    if a.exact and b.exact and rtol is None and atol is None:
        return bool(a.value == b.value)
    ctx = context(digits + 10)
    x, y = _mpf(ctx, a.value), _mpf(ctx, b.value)
    if ctx.isinf(x) or ctx.isinf(y):
        return bool(x == y)
    magnitudes = [s for s in (a.scale, b.scale) if s is not None]
    magnitudes += [int(ctx.mag(v)) for v in (x, y) if v != 0]
    bound = ctx.mpf(0)
    if magnitudes and not (a.exact and b.exact):
        bound = ctx.ldexp(ctx.mpf(10) ** (12 - digits), max(magnitudes))
    if rtol is not None:
        bound = max(bound, ctx.mpf(rtol) * max(abs(x), abs(y)))
    if atol is not None:
        bound = max(bound, ctx.mpf(atol))
    return bool(abs(x - y) <= bound)


def _mpf(ctx: Any, value: Any) -> Any:
    if isinstance(value, Fraction):
        return ctx.mpf(value.numerator) / value.denominator
    return ctx.mpf(value)
