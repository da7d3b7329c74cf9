"""Numeric answers: one real number, typed as a number or an expression, within a tolerance."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grading.checkers.base import (
    Answer,
    Checker,
    Verdict,
    check_misconception_shapes,
    feedback,
    is_number,
    misconception_list,
    names_of,
)
from grading.checkers.mathparse import (
    BinOp,
    Expr,
    FormatError,
    Neg,
    Node,
    Num,
    Pow,
    parse,
)
from grading.checkers.refs import Number, answer_number, reference_number

__all__ = ["NumericAnswer", "NumericChecker", "Tolerance", "format_number", "sigfigs_written"]

DEFAULT_RTOL = 1e-9
_EPS = 2.220446049250313e-16
_THOUSANDS = re.compile(r"[+-]?\d{1,3}(,\d{3})+(\.\d+)?")
TOLERANCE_KEYS = ("rtol", "atol", "sigfigs", "decimals", "decades")


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
        """True if ``answer`` is close enough to ``reference`` (no float ``==`` anywhere)."""
        if math.isnan(answer.value) or math.isnan(reference.value):
            return False
        decided = self._float_decision(answer, reference)
        if decided is not None:
            return decided
        bounds: list[Fraction] = []
        if self.rtol is not None or self.atol is not None:
            ref_abs = _abs_fraction(reference)
            rel = _fraction(self.rtol or 0.0) * ref_abs
            bounds.append(max(rel, _fraction(self.atol or 0.0)))
        if self.sigfigs is not None and reference.value != 0.0:
            magnitude = math.floor(math.log10(abs(reference.value)))
            if reference.exact is not None:
                magnitude = _exact_magnitude(reference.exact)
            bounds.append(Fraction(1, 2) * Fraction(10) ** (magnitude - self.sigfigs + 1))
        if self.decimals is not None:
            bounds.append(Fraction(1, 2) * Fraction(10) ** (-self.decimals))
        if bounds and _within(answer, reference, max(bounds)):
            return True
        if self.sigfigs is not None and reference.value == 0.0 and answer.value == 0.0:
            return True
        return self.decades is not None and _within_decades(answer, reference, self.decades)

    def _float_decision(self, answer: Number, reference: Number) -> bool | None:
        """Decide the rtol/atol test in floats when it is far from its boundary, else None.

        The margin covers the rounding of the float difference, so only answers within a few
        ulps of the boundary (1.05 against 1 with rtol 0.05) take the exact Fraction path.
        """
        if self.rtol is None and self.atol is None:
            return None
        if not (math.isfinite(answer.value) and math.isfinite(reference.value)):
            return None
        bound = max((self.rtol or 0.0) * abs(reference.value), self.atol or 0.0)
        diff = abs(answer.value - reference.value)
        margin = 8 * math.ulp(max(abs(answer.value), abs(reference.value), bound)) + 1e-12 * bound
        if diff + margin < bound:
            return True
        only_rtol_atol = self.sigfigs is None and self.decimals is None and self.decades is None
        if diff - margin > bound and only_rtol_atol:
            return False
        return None

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
    return Fraction(repr(float(value)))


def _abs_fraction(number: Number) -> Fraction:
    if number.exact is not None:
        return abs(number.exact)
    return Fraction(abs(number.value)) if math.isfinite(number.value) else Fraction(0)


def _exact_magnitude(value: Fraction) -> int:
    """floor(log10(|value|)) computed exactly (value != 0)."""
    value = abs(value)
    guess = math.floor(math.log10(value.numerator) - math.log10(value.denominator))
    while Fraction(10) ** guess > value:
        guess -= 1
    while Fraction(10) ** (guess + 1) <= value:
        guess += 1
    return guess


def _within(answer: Number, reference: Number, bound: Fraction) -> bool:
    if answer.exact is not None and reference.exact is not None:
        return abs(answer.exact - reference.exact) <= bound
    if not (math.isfinite(answer.value) and math.isfinite(reference.value)):
        return False
    diff = abs(answer.value - reference.value)
    slack = float(bound) * 1e-12 + 4 * _EPS * max(abs(answer.value), abs(reference.value))
    return diff <= float(bound) + slack


def _within_decades(answer: Number, reference: Number, decades: float) -> bool:
    a, r = answer.value, reference.value
    if not (math.isfinite(a) and math.isfinite(r)):
        return False
    if a == 0.0 or r == 0.0:
        return a == 0.0 and r == 0.0
    if (a > 0) != (r > 0):
        return False
    return abs(math.log10(abs(a)) - math.log10(abs(r))) <= decades * (1 + 1e-12) + 1e-12


# --------------------------------------------------------------------------- written form


def sigfigs_written(node: Node) -> tuple[int, int] | None:
    """(fewest, most) significant figures of a number as typed, or None for an expression.

    Accepts ``0.0015``, ``-1.50e-3``, ``1.5*10^-3``; trailing zeros of a whole number
    (``1500``) are ambiguous, hence the range.
    """
    if isinstance(node, Neg):
        node = node.operand
    if isinstance(node, BinOp) and node.op == "*" and isinstance(node.left, Num) \
            and _is_power_of_ten(node.right):
        node = node.left
    if not isinstance(node, Num):
        return None
    mantissa = node.text.split("e")[0]
    digits = mantissa.replace(".", "").lstrip("0")
    if not digits:  # zero: count the zeros after the point, at least one
        decimals = mantissa.split(".")[1] if "." in mantissa else ""
        return (max(1, len(decimals)), max(1, len(decimals)))
    if "." in mantissa:
        return (len(digits), len(digits))
    stripped = digits.rstrip("0")
    return (len(stripped), len(digits))


def _is_power_of_ten(node: Node) -> bool:
    if not isinstance(node, Pow) or not isinstance(node.base, Num) or node.base.text != "10":
        return False
    exponent = node.exponent.operand if isinstance(node.exponent, Neg) else node.exponent
    return isinstance(exponent, Num) and exponent.value.denominator == 1


def format_number(value: float, digits: int = 6) -> str:
    """A float for people: 0.001502, 1.9, 3.2e-12."""
    if not math.isfinite(value):
        return str(value)
    if value == 0.0:
        return "0"
    text = f"{value:.{digits}g}"
    return text.replace("e-0", "e-").replace("e+0", "e").replace("e+", "e")


#: "1.5 x 10-3" (with a times sign, a dot or *, and any minus or dash): a power of ten whose
#: ^ went missing, which would read as 15 - 3.
_LOST_CARET = re.compile("(?:[\u00d7x\u00b7*]|\\\\times)\\s*10\\s*[-\u2212\u2013]\\s*\\d")


def read_plain_number(raw: str) -> str:
    """Undo a thousands separator (``1,000.5``) and refuse other commas with a hint."""
    text = raw.strip()
    if _THOUSANDS.fullmatch(text):
        return text.replace(",", "")
    return text


# --------------------------------------------------------------------------- checker


@dataclass(frozen=True)
class NumericAnswer(Answer):
    """A number or an expression of numbers, kept beside its value."""

    expr: Expr | None = None
    sigfigs: tuple[int, int] | None = None
    value: Number | None = None  # computed once when the answer has no variables


class NumericChecker(Checker[NumericAnswer]):
    """One real number within ``rtol``/``atol``/``sigfigs``/``decimals``/``decades``."""

    type_name = "numeric"
    spec_keys = frozenset({*TOLERANCE_KEYS, "written_sigfigs"})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> NumericAnswer:
        if _LOST_CARET.search(raw or ""):
            raise FormatError("write a power of ten with ^, as in 1.5\u00d710^-3 (without it "
                              "this reads as 1.5\u00d710 \u2212 3)", None)
        text = read_plain_number(raw or "")
        expr = parse(text, variables=names_of(spec, "variables"),
                     functions=names_of(spec, "functions"))
        written = sigfigs_written(expr.node)
        wanted = spec.get("written_sigfigs")
        if wanted is not None:
            example = format_number(1.23456789, int(wanted))
            if written is None:
                raise FormatError(
                    f"write the value as a plain number with {wanted} significant figures "
                    f"(for example {example} or {example}e-3), not as an expression",
                    None,
                )
            low, high = written
            if not low <= int(wanted) <= high:
                counted = str(low) if low == high else f"{low} to {high}"
                raise FormatError(
                    f"write exactly {wanted} significant figures (you wrote {counted})", None
                )
        text_form = expr.to_text()
        canonical = text_form
        number = answer_number(expr, {}) if not expr.free_variables else None
        if written is None and number is not None:
            value = number.value
            if not math.isfinite(value):
                raise FormatError(
                    "this has no finite value (a division by zero, or the log or square "
                    "root of a negative number?)",
                    None,
                )
            canonical = f"{text_form} ≈ {format_number(value)}"
        return NumericAnswer(raw=raw, canonical=canonical, latex=expr.to_latex(), expr=expr,
                             sigfigs=written, value=number)

    def check(self, answer: NumericAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        params = params or {}
        assert answer.expr is not None  # noqa: S101 - always set by parse
        value = answer.value if answer.value is not None else answer_number(answer.expr, params)
        if not math.isfinite(value.value):
            return Verdict(0.0, "incorrect", "This has no finite value.", None, [],
                           answer.canonical)
        tolerance = Tolerance.from_spec(spec)
        reference = reference_number(spec["reference"], params)
        if tolerance.accepts(value, reference):
            return Verdict(1.0, "correct", feedback(spec, True), None, [], answer.canonical)
        for item in misconception_list(spec):
            try:
                target = reference_number(item.get("answer"), params)
            except ValueError:
                continue
            if tolerance.for_misconception(item).accepts(value, target):
                return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                               str(item.get("tag")), [], answer.canonical)
        return Verdict(0.0, "incorrect", _incorrect_feedback(spec, value, reference, tolerance),
                       None, [], answer.canonical)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        reference = reference_number(spec["reference"], params)
        wanted = spec.get("written_sigfigs")
        if wanted is not None:
            return f"{reference.value:.{int(wanted) - 1}e}"
        if reference.exact is not None and reference.exact.denominator == 1:
            return str(reference.exact.numerator)
        return repr(reference.value)

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        problems += validate_reference_scalar(spec)
        problems += validate_tolerance(spec)
        if "written_sigfigs" in spec and not _positive_int(spec["written_sigfigs"]):
            problems.append("'written_sigfigs' must be a whole number from 1 to 17")
        problems += validate_misconception_tolerances(spec)
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        return misconception_collisions(
            spec, params, lambda text, values: [reference_number(text, values)])


def validate_misconception_tolerances(spec: Mapping[str, Any]) -> list[str]:
    """Problems with the misconceptions list, whose entries may carry tolerance keys."""
    problems = check_misconception_shapes(spec, extra=TOLERANCE_KEYS)
    for index, item in enumerate(misconception_list(spec), start=1):
        problems += [f"'misconceptions' entry {index}: {problem}"
                     for problem in validate_tolerance(item)]
    return problems


def misconception_collisions(
    spec: Mapping[str, Any], params: Mapping[str, Any],
    numbers: Callable[[object, Mapping[str, Any]], list[Number]],
) -> list[str]:
    """Misconceptions that cannot be computed, or that the spec's tolerance would accept.

    `numbers(expression, params)` computes an expression's value(s): one number for numeric
    parts, a list for vector parts; a misconception matches when every element is accepted.
    """
    problems = []
    tolerance = Tolerance.from_spec(spec)
    reference = numbers(spec["reference"], params)
    for index, item in enumerate(misconception_list(spec), start=1):
        try:
            target = numbers(item.get("answer"), params)
        except ValueError as exc:
            problems.append(f"'misconceptions' entry {index}: {exc}")
            continue
        if len(target) != len(reference):
            problems.append(f"'misconceptions' entry {index} has {len(target)} numbers, "
                            f"the reference {len(reference)}")
        elif all(tolerance.accepts(t, r) for t, r in zip(target, reference, strict=True)):
            problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') would be "
                            "graded correct: it is within the tolerance of the reference")
    return problems


def _incorrect_feedback(spec: Mapping[str, Any], value: Number, reference: Number,
                        tolerance: Tolerance) -> str:
    base = feedback(spec, False)
    if "feedback_incorrect" in spec:
        return base
    flipped = Number(-value.value, -value.exact if value.exact is not None else None)
    if reference.value != 0.0 and tolerance.accepts(flipped, reference):
        return f"{base} Check the sign of your answer."
    if value.value != 0.0 and reference.value != 0.0 and math.isfinite(value.value):
        ratio = math.log10(abs(reference.value / value.value))
        k = round(ratio)
        if k != 0 and abs(ratio - k) < 0.01:
            scaled = Number(value.value * 10.0**k)
            if tolerance.accepts(scaled, reference):
                return (f"{base} Check the powers of ten: your answer is off by a factor "
                        f"of 10^{abs(k)}.")
    return base


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 17


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
    if "decimals" in spec and (not isinstance(spec["decimals"], int)
                               or isinstance(spec["decimals"], bool)
                               or not 0 <= spec["decimals"] <= 15):
        problems.append("'decimals' must be a whole number from 0 to 15")
    return problems
