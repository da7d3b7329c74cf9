"""Numbers to compare, kept exact: ``Number`` and exact decimal rounding.

A ``Number`` holds the nearest float (for display and quick decisions), the exact rational
value when there is one, and otherwise a 50-digit rational approximation (irrationals such as
``sqrt(2)``). ``best`` gives a ``Fraction`` to compute with, so comparisons never go through
binary floats: subnormal (``5e-324``) and huge (``10^400``) values compare like any other.
Infinities (``oo``, where a spec allows them) and undefined values (NaN) are plain floats.

``round_half_away(x, quantum)`` and ``round_sigfigs(x, n)`` round exactly, half away from
zero, as teachers do (0.01235 to 3 significant figures is 0.0124).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grading.checkers.mathparse.floats import float_of
from grading.checkers.mathparse.precise import PreciseValue, Unavailable, context, to_fraction

__all__ = [
    "APPROXIMATION_FIGURES",
    "Number",
    "log10_abs",
    "magnitude",
    "round_decimals",
    "round_half_away",
    "round_sigfigs",
]


APPROXIMATION_FIGURES = 40


@dataclass(frozen=True)
class Number:
    """A value to compare: float, plus the exact rational or a close rational approximation."""

    value: float
    exact: Fraction | None = None
    approx: Fraction | None = None  # 50 significant digits, when the value is irrational

    @classmethod
    def of_fraction(cls, value: Fraction) -> Number:
        """An exact rational."""
        return cls(float_of(value), value)

    @classmethod
    def of_approximation(cls, value: Fraction) -> Number:
        """A close rational approximation (kept to 40 significant figures, so a value
        computed through irrationals, such as exp(ln(1.05)), is 1.05 exactly)."""
        if value != 0:
            value = round_sigfigs(value, APPROXIMATION_FIGURES)[0]
        return cls(float_of(value), None, value)

    @classmethod
    def of_precise(cls, result: PreciseValue | Unavailable) -> Number:
        """A Number from a high-precision evaluation (NaN when undefined or overflowing)."""
        if isinstance(result, Unavailable):
            return cls(math.nan)
        if isinstance(result.value, Fraction):
            return cls.of_fraction(result.value)
        value: Any = result.value
        ctx = context()
        if ctx.isnan(value):
            return cls(math.nan)
        if ctx.isinf(value):
            return cls(math.inf if value > 0 else -math.inf)
        return cls.of_approximation(to_fraction(value))

    @property
    def is_nan(self) -> bool:
        """True when the value is undefined."""
        return self.exact is None and self.approx is None and math.isnan(self.value)

    @property
    def is_infinite(self) -> bool:
        """True for ±infinity (never for an exact value beyond the float range)."""
        return self.exact is None and self.approx is None and math.isinf(self.value)

    @property
    def is_finite(self) -> bool:
        """True for a real number (exact, approximated or a finite float)."""
        return not (self.is_nan or self.is_infinite)

    def best(self) -> Fraction:
        """The value as a Fraction (exact, or the closest known); ValueError if not finite."""
        if self.exact is not None:
            return self.exact
        if self.approx is not None:
            return self.approx
        if not math.isfinite(self.value):
            raise ValueError("not a finite number")
        return Fraction(repr(self.value))  # a float is taken as its shortest decimal

    def __neg__(self) -> Number:
        return Number(-self.value, -self.exact if self.exact is not None else None,
                      -self.approx if self.approx is not None else None)

    def scaled(self, factor: Fraction) -> Number:
        """This number times an exact factor (kept exact or approximate as it was)."""
        if self.exact is not None:
            return Number.of_fraction(self.exact * factor)
        if self.approx is not None:
            return Number.of_approximation(self.approx * factor)
        if math.isfinite(self.value):
            return Number.of_approximation(Fraction(repr(self.value)) * factor)
        return self


def log10_abs(value: Fraction) -> float:
    """log10(|value|) for a non-zero rational of any size (no float overflow)."""
    return math.log10(abs(value.numerator)) - math.log10(value.denominator)


def magnitude(value: Fraction) -> int:
    """floor(log10(|value|)) computed exactly (value != 0)."""
    value = abs(value)
    guess = math.floor(log10_abs(value))
    while Fraction(10) ** guess > value:
        guess -= 1
    while Fraction(10) ** (guess + 1) <= value:
        guess += 1
    return guess


def round_half_away(value: Fraction, quantum: Fraction) -> Fraction:
    """``value`` rounded to a multiple of ``quantum``, ties away from zero, exactly."""
    steps = math.floor(abs(value) / quantum + Fraction(1, 2))
    return steps * quantum if value >= 0 else -steps * quantum


def round_decimals(value: Fraction, decimals: int) -> Fraction:
    """``value`` rounded to ``decimals`` decimal places, ties away from zero."""
    return round_half_away(value, Fraction(1, 10**decimals) if decimals >= 0
                           else Fraction(10 ** -decimals))


def round_sigfigs(value: Fraction, figures: int) -> tuple[Fraction, Fraction]:
    """``value`` rounded to ``figures`` significant figures, ties away from zero, and the
    quantum (the place value of the last kept figure) of the rounded value.

    0.01235 gives (0.0124, 0.0001); 9.996 to 3 figures gives (10.0, 0.1). Zero gives (0, 1).
    """
    if value == 0:
        return Fraction(0), Fraction(1)
    quantum = Fraction(10) ** (magnitude(value) - figures + 1)
    rounded = round_half_away(value, quantum)
    if rounded != 0 and magnitude(rounded) > magnitude(value):  # 9.996 -> 10.0
        quantum *= 10
        rounded = round_half_away(value, quantum)
    return rounded, quantum
