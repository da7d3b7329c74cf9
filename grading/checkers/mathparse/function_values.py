"""How each function of the registry is computed, one helper per way: with floats (``real_``,
total: NaN outside the domain, for sampling), exactly (``exact_``: rationals in, a rational or
None out), with high precision (``p_``, mpmath, given the context first), as sympy objects
(``s_``), and over lists (``sum``, ``mean``, ``dot``, ``len``). The table in ``functions.py``
names these helpers; nothing here knows a function's spelling.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy

__all__ = [
    "MAX_EXACT_FACTORIAL",
    "MAX_EXACT_ROOT_BITS",
    "NAN",
    "Exact",
    "Real",
    "as_lists",
    "bits",
    "exact_binomial",
    "exact_cbrt",
    "exact_ceil",
    "exact_factorial",
    "exact_floor",
    "exact_if_zero",
    "exact_ln",
    "exact_root",
    "exact_sign",
    "exact_sqrt",
    "guarded",
    "int_root",
    "need_lists",
    "p_acot",
    "p_atan2",
    "p_log",
    "p_max",
    "p_min",
    "p_none",
    "p_relu",
    "p_root",
    "p_sigmoid",
    "p_softplus",
    "real_acos",
    "real_acosh",
    "real_acot",
    "real_asin",
    "real_atan2",
    "real_atanh",
    "real_binomial",
    "real_ceil",
    "real_dot",
    "real_factorial",
    "real_floor",
    "real_gamma",
    "real_gamma_sign",
    "real_len",
    "real_ln",
    "real_log",
    "real_max",
    "real_mean",
    "real_min",
    "real_of_recip",
    "real_recip",
    "real_relu",
    "real_root",
    "real_sigmoid",
    "real_sign",
    "real_sinh",
    "real_softplus",
    "real_sqrt",
    "real_sum",
    "s_dot",
    "s_len",
    "s_log",
    "s_mean",
    "s_root",
    "s_sum",
]

MAX_EXACT_FACTORIAL = 3000  # n! is computed exactly up to this n (about 28,000 bits)
MAX_EXACT_ROOT_BITS = 20_000

Real = Callable[..., float]
Exact = Callable[..., "Fraction | None"]


# --------------------------------------------------------------------------- float helpers

NAN = math.nan


def guarded(fn: Real) -> Real:
    """``fn`` made total on floats: NaN in gives NaN; domain errors give NaN; overflow gives
    an infinity (the sign of the overflowing computation when known, else +inf)."""

    def safe(*args: float) -> float:
        if any(math.isnan(a) for a in args):
            return NAN
        try:
            return float(fn(*args))
        except OverflowError:
            return math.inf
        except (ValueError, ZeroDivisionError, TypeError):
            return NAN

    return safe


def real_ln(x: float) -> float:
    return math.log(x) if x > 0 else NAN


def real_log(x: float, base: float | None = None) -> float:
    if base is None:
        return real_ln(x)
    if x <= 0 or base <= 0 or base == 1.0:
        return NAN
    return math.log(x) / math.log(base)


def real_sqrt(x: float) -> float:
    return math.sqrt(x) if x >= 0 else NAN


def real_root(x: float, n: float) -> float:
    if n == 0 or math.isinf(n):
        return NAN
    if x >= 0:
        return x ** (1.0 / n) if x > 0 or n > 0 else NAN
    if float(n).is_integer() and int(n) % 2 == 1:
        return -((-x) ** (1.0 / n))
    return NAN


def real_sinh(x: float) -> float:
    try:
        return math.sinh(x)
    except OverflowError:
        return math.copysign(math.inf, x)


def real_recip(fn: Real) -> Real:
    def inverse(x: float) -> float:
        value = fn(x)
        return 1.0 / value if value != 0 else NAN

    return inverse


def real_of_recip(fn: Real) -> Real:
    def composed(x: float) -> float:
        return fn(1.0 / x) if x != 0 else NAN

    return composed


def real_acot(x: float) -> float:
    return math.atan(1.0 / x) if x != 0 else math.pi / 2


def real_atan2(y: float, x: float) -> float:
    return NAN if y == 0 and x == 0 else math.atan2(y, x)


def real_sign(x: float) -> float:
    return float((x > 0) - (x < 0))


def real_floor(x: float) -> float:
    return x if math.isinf(x) else float(math.floor(x))


def real_ceil(x: float) -> float:
    return x if math.isinf(x) else float(math.ceil(x))


def real_gamma_sign(x: float) -> float:
    if x > 0:
        return 1.0
    return -1.0 if math.floor(x) % 2 else 1.0


def real_gamma(x: float) -> float:
    if x <= 0 and float(x).is_integer():
        return NAN
    if x < 171.6:
        return math.gamma(x)
    return math.inf


def real_factorial(x: float) -> float:
    return real_gamma(x + 1.0)


def real_binomial(n: float, k: float) -> float:
    if float(k).is_integer():
        whole = int(k)
        if whole < 0:
            return 0.0
        if whole <= 1000:
            result = 1.0
            for i in range(whole):
                result = result * (n - i) / (i + 1)
            return result
    try:
        log = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
    except ValueError:
        return NAN
    sign = real_gamma_sign(n + 1) * real_gamma_sign(k + 1) * real_gamma_sign(n - k + 1)
    return sign * math.exp(log)


def real_sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def real_softplus(x: float) -> float:
    if x > 30:
        return x + math.log1p(math.exp(-x))
    return math.log1p(math.exp(x))


def real_relu(x: float) -> float:
    return x if x > 0 else 0.0


def real_min(*args: float) -> float:
    return min(args)


def real_max(*args: float) -> float:
    return max(args)


def real_asin(x: float) -> float:
    return math.asin(x) if -1 <= x <= 1 else NAN


def real_acos(x: float) -> float:
    return math.acos(x) if -1 <= x <= 1 else NAN


def real_acosh(x: float) -> float:
    return math.acosh(x) if x >= 1 else NAN


def real_atanh(x: float) -> float:
    return math.atanh(x) if -1 < x < 1 else NAN


# --------------------------------------------------------------------------- exact helpers


def bits(value: Fraction) -> int:
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def int_root(n: int, k: int) -> int | None:
    """The integer k-th root of n >= 0 when n is a perfect k-th power, else None."""
    if n < 2:
        return n
    guess = round(n ** (1.0 / k)) if n.bit_length() < 1000 else None
    if guess is None:
        low, high = 0, 1 << (n.bit_length() // k + 1)
        while low < high:
            mid = (low + high + 1) // 2
            if mid**k <= n:
                low = mid
            else:
                high = mid - 1
        guess = low
    for candidate in (guess - 1, guess, guess + 1):
        if candidate >= 0 and candidate**k == n:
            return candidate
    return None


def exact_root(x: Fraction, n: Fraction) -> Fraction | None:
    if n.denominator != 1 or n == 0 or abs(n) > 64 or bits(x) > MAX_EXACT_ROOT_BITS:
        return None
    k = abs(n.numerator)
    if x < 0 and k % 2 == 0:
        return None
    top = int_root(abs(x.numerator), k)
    bottom = int_root(x.denominator, k)
    if top is None or bottom is None:
        return None
    value = Fraction(top, bottom) * (-1 if x < 0 else 1)
    if n < 0:
        return None if value == 0 else 1 / value
    return value


def exact_sqrt(x: Fraction) -> Fraction | None:
    return None if x < 0 else exact_root(x, Fraction(2))


def exact_cbrt(x: Fraction) -> Fraction | None:
    return exact_root(x, Fraction(3))


def exact_factorial(x: Fraction) -> Fraction | None:
    if x.denominator != 1 or not 0 <= x <= MAX_EXACT_FACTORIAL:
        return None
    return Fraction(math.factorial(x.numerator))


def exact_binomial(n: Fraction, k: Fraction) -> Fraction | None:
    if k.denominator != 1:
        return None
    whole = k.numerator
    if whole < 0:
        return Fraction(0)
    if whole > MAX_EXACT_FACTORIAL or bits(n) * whole > 100_000:
        return None
    if n.denominator == 1 and n >= 0:
        return Fraction(math.comb(n.numerator, whole))
    result = Fraction(1)
    for i in range(whole):
        result = result * (n - i) / (i + 1)
    return result


def exact_sign(x: Fraction) -> Fraction:
    return Fraction((x > 0) - (x < 0))


def exact_floor(x: Fraction) -> Fraction:
    return Fraction(math.floor(x))


def exact_ceil(x: Fraction) -> Fraction:
    return Fraction(math.ceil(x))


def exact_if_zero(value: int) -> Exact:
    """For f with f(0) = value exactly (exp, cos, sin, ...): exact at 0, else None."""

    def exact(x: Fraction) -> Fraction | None:
        return Fraction(value) if x == 0 else None

    return exact


def exact_ln(x: Fraction) -> Fraction | None:
    return Fraction(0) if x == 1 else None


# --------------------------------------------------------------------------- precise helpers
# Each takes an mpmath context and mpf values; a complex result means "undefined".


def p_log(c: Any, x: Any, base: Any = None) -> Any:
    if base is None:
        return c.log(x)
    if base <= 0 or base == 1:
        return c.nan
    return c.log(x) / c.log(base)


def p_root(c: Any, x: Any, n: Any) -> Any:
    n = c.mpf(n)
    if n == 0 or c.isinf(n):
        return c.nan
    if x >= 0:
        return c.power(x, 1 / n) if x > 0 or n > 0 else c.nan
    if c.isint(n) and int(n) % 2 == 1:
        return -c.power(-x, 1 / n)
    return c.nan


def p_atan2(c: Any, y: Any, x: Any) -> Any:
    return c.nan if y == 0 and x == 0 else c.atan2(y, x)


def p_acot(c: Any, x: Any) -> Any:
    return c.pi / 2 if x == 0 else c.atan(1 / x)


def p_sigmoid(c: Any, x: Any) -> Any:
    return 1 / (1 + c.exp(-x))


def p_softplus(c: Any, x: Any) -> Any:
    return c.log(1 + c.exp(x))


def p_relu(c: Any, x: Any) -> Any:
    return x if x > 0 else c.zero


def p_min(c: Any, *args: Any) -> Any:
    return min(args)


def p_max(c: Any, *args: Any) -> Any:
    return max(args)


# --------------------------------------------------------------------------- sympy helpers


def s_log(x: Any, base: Any = None) -> Any:
    return sympy.log(x) if base is None else sympy.log(x, base)


def s_root(x: Any, n: Any) -> Any:
    if isinstance(n, sympy.Integer) and int(n) % 2 == 1:
        return sympy.real_root(x, n)
    return sympy.root(x, n)


# --------------------------------------------------------------------------- list functions


def as_lists(args: Sequence[Any]) -> list[list[Any]] | None:
    # A matrix counts as the list of its entries, row by row (sum(A), mean(A), dot(u, v)).
    flat = [list(a) if isinstance(a, sympy.MatrixBase) else a for a in args]
    return flat if all(isinstance(a, list) for a in flat) else None


def real_dot(a: Any, b: Any) -> float:
    lists = as_lists([a, b])
    if lists is None or len(lists[0]) != len(lists[1]):
        return NAN
    return math.fsum(x * y for x, y in zip(lists[0], lists[1], strict=True))


def real_sum(a: Any) -> float:
    return math.fsum(a) if isinstance(a, list) else NAN


def real_mean(a: Any) -> float:
    return math.fsum(a) / len(a) if isinstance(a, list) and a else NAN


def real_len(a: Any) -> float:
    return float(len(a)) if isinstance(a, list) else NAN


def need_lists(name: str, args: Sequence[Any]) -> list[list[Any]]:
    lists = as_lists(args)
    if lists is None:
        raise ValueError(f"{name}() needs list parameters as arguments")
    return lists


def s_dot(a: Any, b: Any) -> Any:
    x, y = need_lists("dot", [a, b])
    if len(x) != len(y):
        raise ValueError("dot() of lists of different lengths")
    return sympy.Add(*[p * q for p, q in zip(x, y, strict=True)])


def s_sum(a: Any) -> Any:
    return sympy.Add(*need_lists("sum", [a])[0])


def s_mean(a: Any) -> Any:
    (items,) = need_lists("mean", [a])
    if not items:
        raise ValueError("mean() of an empty list")
    return sympy.Add(*items) / len(items)


def s_len(a: Any) -> Any:
    return sympy.Integer(len(need_lists("len", [a])[0]))


def p_none(c: Any, *args: Any) -> Any:
    return c.nan
