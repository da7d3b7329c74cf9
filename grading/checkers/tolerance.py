"""Tolerances of numeric and vector parts: rtol, atol, sigfigs, decimals, decades.

An answer is accepted when it meets ANY of the criteria the spec gives (rtol 1e-9 when it
gives none). Every decision is made with exact rationals (``Number.best``), never with float
``==``; a float shortcut is taken only far from the boundary, for ordinary magnitudes.

* rtol/atol: ``|a - r| <= max(rtol·|r|, atol)``.
* sigfigs n: the reference is rounded exactly to n significant figures (half away from zero)
  giving R with last place q; the answer is accepted when it rounds to n significant figures
  (the same way) to R and lies within q/2 of the reference. So 0.0124 and 0.01236 are right
  for 0.01235 to 3 figures, 0.0123 is not; 10.0 is right for 9.996, 9.99 is not; and R
  itself is always right.
* decimals n: the answer rounds to n decimal places to the reference rounded the same way,
  and lies within half a unit of the n-th decimal of the reference.
* decades d: same sign, non-zero, ``|log10(a/r)| <= d``.
* infinities (where a spec allows them) match only the same infinity.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grading.checkers.base import is_number
from grading.checkers.quantities import Number, log10_abs, round_decimals, round_sigfigs

__all__ = ["DEFAULT_RTOL", "TOLERANCE_KEYS", "Tolerance"]

DEFAULT_RTOL = 1e-9
TOLERANCE_KEYS = ("rtol", "atol", "sigfigs", "decimals", "decades")
_NORMAL = (1e-280, 1e280)  # magnitudes where the float shortcut is safe
#: A refused answer within this many times the tolerance's slack is a near miss ...
NEAR_FACTOR = 5
#: ... or within this share of the reference (for tolerances far finer than that).
NEAR_SHARE = Fraction(1, 100)


@dataclass(frozen=True)
class Tolerance:
    """How close is close enough; an answer is accepted when it meets ANY given criterion."""

    rtol: float | None = None
    atol: float | None = None
    sigfigs: int | None = None
    decimals: int | None = None
    decades: float | None = None

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any]) -> Tolerance:
        """The spec's tolerance, or rtol 1e-9 when it gives none."""
        values = {key: spec.get(key) for key in TOLERANCE_KEYS}
        if all(v is None for v in values.values()):
            return cls(rtol=DEFAULT_RTOL)
        return cls(
            rtol=_opt_float(values["rtol"]),
            atol=_opt_float(values["atol"]),
            sigfigs=_opt_int(values["sigfigs"]),
            decimals=_opt_int(values["decimals"]),
            decades=_opt_float(values["decades"]),
        )

    def for_misconception(self, item: Mapping[str, Any]) -> Tolerance:
        """The tolerance to match misconception `item` with: its own tolerance keys if it
        has any (to tell apart mistakes whose values lie close together), else this one."""
        if any(key in item for key in TOLERANCE_KEYS):
            return Tolerance.from_spec(item)
        return self

    def accepts(self, answer: Number, reference: Number) -> bool:
        """True if ``answer`` is close enough to ``reference`` (see the module docstring)."""
        if answer.is_nan or reference.is_nan:
            return False
        if answer.is_infinite or reference.is_infinite:
            return answer.is_infinite and reference.is_infinite \
                and (answer.value > 0) == (reference.value > 0)
        decided = self._float_decision(answer, reference)
        if decided is not None:
            return decided
        a, r = answer.best(), reference.best()
        if (self.rtol is not None or self.atol is not None) and abs(a - r) <= max(
            _fraction(self.rtol or 0.0) * abs(r), _fraction(self.atol or 0.0)
        ):
            return True
        if self.sigfigs is not None and _same_sigfigs(a, r, self.sigfigs):
            return True
        if self.decimals is not None and _same_decimals(a, r, self.decimals):
            return True
        return self.decades is not None and _within_decades(a, r, self.decades)

    def _float_decision(self, answer: Number, reference: Number) -> bool | None:
        """Decide the rtol/atol test in floats when it is far from its boundary, else None.

        Only for ordinary magnitudes (no subnormals, nothing near the float limits); the
        margin covers the rounding of the float difference, so answers within a few ulps of
        the boundary (1.05 against 1 with rtol 0.05) take the exact path.
        """
        if self.rtol is None and self.atol is None:
            return None
        a, r = answer.value, reference.value
        if not all(x == 0.0 or _NORMAL[0] < abs(x) < _NORMAL[1] for x in (a, r)):
            return None
        bound = max((self.rtol or 0.0) * abs(r), self.atol or 0.0)
        diff = abs(a - r)
        margin = 8 * math.ulp(max(abs(a), abs(r), bound)) + 1e-12 * bound
        if diff + margin < bound:
            return True
        only_rtol_atol = self.sigfigs is None and self.decimals is None and self.decades is None
        if diff - margin > bound and only_rtol_atol:
            return False
        return None

    def slack(self, reference: Number) -> Fraction:
        """How far from a finite ``reference`` the widest of the criteria reaches (a number
        ``|a - r|`` may be and still be accepted by some criterion, roughly for decades)."""
        r = reference.best()
        reaches = [Fraction(0)]
        if self.rtol:
            reaches.append(_fraction(self.rtol) * abs(r))
        if self.atol:
            reaches.append(_fraction(self.atol))
        if self.sigfigs is not None and r != 0:
            reaches.append(round_sigfigs(r, self.sigfigs)[1] / 2)
        if self.decimals is not None:
            reaches.append(Fraction(1, 10**self.decimals) / 2)
        if self.decades is not None:
            reaches.append(abs(r) * (_fraction(10 ** self.decades) - 1))
        return max(reaches)

    def near(self, answer: Number, reference: Number) -> bool:
        """Whether a finite answer this tolerance refuses is still a near miss: within
        NEAR_FACTOR times its slack of the reference, or within NEAR_SHARE of it for a
        tolerance much finer than that (the default asks for the exact value)."""
        if not (answer.is_finite and reference.is_finite):
            return False
        r = reference.best()
        reach = max(NEAR_FACTOR * self.slack(reference), NEAR_SHARE * abs(r))
        return abs(answer.best() - r) <= reach

    @property
    def is_default(self) -> bool:
        return self == Tolerance(rtol=DEFAULT_RTOL)

    def describe(self) -> str:
        """Human-readable summary, e.g. 'within 1%'."""
        parts = []
        if self.rtol:
            parts.append(f"within {self.rtol * 100:g}%")
        if self.atol:
            parts.append(f"within ±{self.atol:g}")
        if self.sigfigs is not None:
            parts.append(f"to {self.sigfigs} significant figures")
        if self.decimals is not None:
            parts.append(f"to {self.decimals} decimal places")
        if self.decades is not None:
            parts.append(f"within a factor of 10^{self.decades:g}")
        return " or ".join(parts) or "exactly"


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _fraction(value: float) -> Fraction:
    """A tolerance as the decimal the author wrote (0.01 is exactly 1/100)."""
    return Fraction(repr(float(value)))


def _same_sigfigs(answer: Fraction, reference: Fraction, figures: int) -> bool:
    rounded, quantum = round_sigfigs(reference, figures)
    if rounded == 0:
        return answer == 0
    return round_sigfigs(answer, figures)[0] == rounded \
        and abs(answer - reference) <= quantum / 2


def _same_decimals(answer: Fraction, reference: Fraction, decimals: int) -> bool:
    quantum = Fraction(1, 10**decimals)
    return round_decimals(answer, decimals) == round_decimals(reference, decimals) \
        and abs(answer - reference) <= quantum / 2


def _within_decades(answer: Fraction, reference: Fraction, decades: float) -> bool:
    if answer == 0 or reference == 0:
        return answer == 0 and reference == 0
    if (answer > 0) != (reference > 0):
        return False
    return abs(log10_abs(answer) - log10_abs(reference)) <= decades * (1 + 1e-12) + 1e-12


def _positive_int(value: Any) -> bool:
    return _whole(value, 1, 17)


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def validate_reference_scalar(spec: Mapping[str, Any]) -> list[str]:
    """Problems with a one-number ``reference``."""
    if "reference" not in spec:
        return ["'reference' is missing"]
    value = spec["reference"]
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return ["'reference' must be an expression string (or a number)"]
    if isinstance(value, str) and not value.strip():
        return ["'reference' must not be empty"]
    return []


def validate_tolerance(spec: Mapping[str, Any]) -> list[str]:
    """Problems with rtol/atol/sigfigs/decimals/decades."""
    problems = []
    for key in ("rtol", "atol", "decades"):
        if key in spec and (not is_number(spec[key]) or spec[key] < 0):
            problems.append(f"'{key}' must be a non-negative number")
    if "rtol" in spec and is_number(spec["rtol"]) and spec["rtol"] >= 1:
        problems.append("'rtol' is a fraction (0.01 means 1%) and must be below 1")
    if "sigfigs" in spec and not _positive_int(spec["sigfigs"]):
        problems.append("'sigfigs' must be a whole number from 1 to 17")
    if "decimals" in spec and not _whole(spec["decimals"], 0, 15):
        problems.append("'decimals' must be a whole number from 0 to 15")
    return problems
