"""Numeric answers: one real number, typed as a number or an expression, within a tolerance.

The answer's value is exact when it is rational (``0.85^40``, ``1.5e-3``, ``120!/118!``) and
otherwise known to 50 significant digits; the tolerance is decided with exact rationals
(tolerance.py). Format requirements (``written_sigfigs``, ``written_decimals``) are checked on
the number as the student wrote it, before grading, and an answer that breaks one is invalid.
"""

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
    functions_of,
    misconception_list,
    names_of,
)
from grading.checkers.mathparse import (
    Expr,
    FormatError,
    parse,
)
from grading.checkers.mathparse.characters import normalize
from grading.checkers.mathparse.complex_eval import ComplexValue, complex_evaluate
from grading.checkers.mathparse.errors import gettext_noop
from grading.checkers.notation import (
    NOTATION_KEYS,
    STRING_KEYS,
    check_notation,
    check_strings,
    comparison_verdict,
    decimals_written,
    sigfigs_written,
    validate_notation,
)
from grading.checkers.quantities import (
    Number,
    log10_abs,
    magnitude,
    round_decimals,
    round_half_away,
)
from grading.checkers.refs import answer_number, reference_number
from grading.checkers.tolerance import (
    DEFAULT_RTOL,
    TOLERANCE_KEYS,
    Tolerance,
    _positive_int,
    _whole,
    validate_reference_scalar,
    validate_tolerance,
)

__all__ = [
    "DEFAULT_RTOL",
    "TOLERANCE_KEYS",
    "NumericAnswer",
    "NumericChecker",
    "Tolerance",
    "format_complex",
    "format_number",
    "format_value",
    "read_plain_number",
]

#: 1,000 or 12,345,678.5: a thousands comma (the first group cannot start with 0).
_THOUSANDS = re.compile(r"[+-]?[1-9]\d{0,2}(,\d{3})+(\.\d+)?")
#: 0,0015 or -2,5e-3: one comma between digits that is not a thousands comma.
_DECIMAL_COMMA = re.compile(r"([+-]?)(\d+),(\d+)([eE][+-]?\d+)?")


def format_number(value: float, digits: int = 6) -> str:
    """A float for people: 0.001502, 1.9, 3.2e-12, oo for infinity."""
    if math.isinf(value):
        return "oo" if value > 0 else "-oo"
    if math.isnan(value):
        return "nan"
    if value == 0.0:
        return "0"
    text = f"{value:.{digits}g}"
    return text.replace("e-0", "e-").replace("e+0", "e").replace("e+", "e")


def format_complex(value: ComplexValue, unit: str = "i", digits: int = 6) -> str:
    """``1 + 2i``, ``-0.5i``, ``3``, ``0.707107 - 0.707107j``."""
    real, imag = value.parts()
    if abs(real) < 1e-14 * max(1.0, abs(imag)):
        real = 0.0
    if abs(imag) < 1e-14 * max(1.0, abs(real)):
        imag = 0.0
    if imag == 0:
        return format_number(real, digits)
    magnitude = format_number(abs(imag), digits)
    imaginary = unit if magnitude == "1" else f"{magnitude}{unit}"
    if real == 0:
        return ("-" if imag < 0 else "") + imaginary
    return f"{format_number(real, digits)} {'-' if imag < 0 else '+'} {imaginary}"


def format_value(number: Number, digits: int = 6) -> str:
    """A Number for people, written from its exact value when it is beyond the float range
    (``10^400`` is ``1e400``), else as format_number writes its float."""
    if number.is_finite and (number.value == 0.0 or math.isinf(number.value)) \
            and number.best() != 0:
        value = number.best()  # beyond the float range: write it from its exact value
        exponent = math.floor(log10_abs(value))
        mantissa = float(value / Fraction(10) ** exponent)
        return f"{mantissa:.{digits}g}e{exponent}"
    return format_number(number.value, digits)


#: "1.5 x 10-3" (with a times sign, a dot or *, and any minus or dash): a power of ten whose
#: ^ went missing, which would read as 15 - 3.
_LOST_CARET = re.compile("(?:[\u00d7x\u00b7*]|\\\\times)\\s*10\\s*[-\u2212\u2013]\\s*\\d")


def read_plain_number(raw: str) -> str:
    """The answer with a plain number's separators undone: a thousands comma (``1,000.5``)
    is removed, an unambiguous decimal comma (``0,0015``, ``2,5``: one comma, not followed by
    exactly three digits after a non-zero group) becomes a point. Other text is unchanged."""
    text = normalize(raw)[0].strip().replace("\u2212", "-")
    if _THOUSANDS.fullmatch(text):
        return text.replace(",", "")
    match = _DECIMAL_COMMA.fullmatch(text)
    if match:
        sign, whole, fraction, exponent = match.groups()
        return f"{sign}{whole}.{fraction}{exponent or ''}"
    return raw


# --------------------------------------------------------------------------- checker


@dataclass(frozen=True)
class NumericAnswer(Answer):
    """A number or an expression of numbers, kept beside its value."""

    expr: Expr | None = None
    sigfigs: tuple[int, int] | None = None
    value: Number | None = None  # computed once when the answer has no variables
    precision_problem: str | None = None  # with precision_credit: the rule it breaks


WRITTEN_KEYS = frozenset({"written_sigfigs", "written_decimals"})


def check_written(expr: Expr, spec: Mapping[str, Any]) -> None:
    """Raise FormatError if the number breaks the spec's written_sigfigs/written_decimals
    (numeric answers, and the number of a quantity)."""
    wanted = spec.get("written_sigfigs")
    if wanted is not None:
        example = format_number(1.23456789, int(wanted))
        written = sigfigs_written(expr.node)
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
    places = spec.get("written_decimals")
    if places is not None:
        example = f"{2.5:.{int(places)}f}"
        decimals = decimals_written(expr.node)
        if decimals is None:
            raise FormatError(
                f"write the value as a plain number with {places} decimal places "
                f"(for example {example}), not as an expression",
                None,
            )
        if decimals != int(places):
            unit = "place" if int(places) == 1 else "places"
            raise FormatError(
                f"write exactly {places} decimal {unit} (you wrote {decimals}), "
                f"for example {example}",
                None,
            )


class NumericChecker(Checker[NumericAnswer]):
    """One real number within ``rtol``/``atol``/``sigfigs``/``decimals``/``decades``."""

    type_name = "numeric"
    spec_keys = frozenset({*TOLERANCE_KEYS, *WRITTEN_KEYS, "allow_infinity", *NOTATION_KEYS,
                           *STRING_KEYS})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> NumericAnswer:
        raw = raw if isinstance(raw, str) else ""
        if _LOST_CARET.search(raw):
            raise FormatError("write a power of ten with ^, as in 1.5\u00d710^-3 (without it "
                              "this reads as 1.5\u00d710 \u2212 3)", None)
        infinity = bool(spec.get("allow_infinity"))
        check_strings(raw, spec)
        expr = parse(read_plain_number(raw), variables=names_of(spec, "variables"),
                     functions=functions_of(spec), infinity=infinity)
        problem = None
        try:
            check_written(expr, spec)
            check_notation(raw, expr, spec)
        except FormatError as exc:
            if spec.get("precision_credit") is None:
                raise
            problem = exc.message
        written = sigfigs_written(expr.node)
        text_form = expr.to_text()
        canonical = text_form
        number = answer_number(expr, {}) if not expr.free_variables else None
        if number is not None:
            if number.is_nan or (number.is_infinite and not infinity):
                raise FormatError(_no_real_value(expr), None)
            formatted = format_value(number)
            if written is None and formatted != text_form:
                canonical = f"{text_form} \u2248 {formatted}"
        return NumericAnswer(raw=raw, canonical=canonical, latex=expr.to_latex(), expr=expr,
                             sigfigs=written, value=number, precision_problem=problem)

    def check(self, answer: NumericAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        params = params or {}
        assert answer.expr is not None  # noqa: S101 - always set by parse
        value = answer.value if answer.value is not None else answer_number(answer.expr, params)
        if value.is_nan or (value.is_infinite and not spec.get("allow_infinity")):
            return Verdict(0.0, "incorrect", "This has no finite value.", None, [],
                           answer.canonical)
        tolerance = Tolerance.from_spec(spec)
        reference = reference_number(spec["reference"], params)
        compared = comparison_verdict(value, reference, spec, answer.canonical)
        if compared is not None:
            return compared
        if tolerance.accepts(value, reference) and answer.precision_problem:
            credit = float(spec["precision_credit"])  # Numbas' precisionPartialCredit
            return Verdict(credit, "partial" if credit else "incorrect", f"The value is right, "
                           f"but {answer.precision_problem}.", "precision", [], answer.canonical)
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
        if reference.is_infinite:
            return "oo" if reference.value > 0 else "-oo"
        step = {"greater": 1, "less": -1}.get(str(spec.get("comparison")), 0)
        if step:  # a value beyond the bound
            reference = Number.of_fraction(reference.best() + step)
        exact = reference.best()
        written = written_text(exact, spec)
        if written is not None:
            return written
        if reference.exact is not None and reference.exact.denominator == 1:
            return str(reference.exact.numerator)
        if reference.exact is not None:
            return f"{reference.exact.numerator}/{reference.exact.denominator}"
        return _scientific_text(exact, 17)

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        problems += validate_reference_scalar(spec)
        problems += validate_tolerance(spec)
        problems += validate_written(spec)
        problems += validate_notation(spec)
        if "allow_infinity" in spec and not isinstance(spec["allow_infinity"], bool):
            problems.append("'allow_infinity' must be true or false")
        problems += validate_misconception_tolerances(spec)
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        return misconception_collisions(
            spec, params, lambda text, values: [reference_number(text, values)])


def written_text(value: Fraction, spec: Mapping[str, Any]) -> str | None:
    """``value`` written as the spec's written_decimals/written_sigfigs ask (rounded half away
    from zero), or None when the spec asks for neither."""
    places = spec.get("written_decimals")
    if places is not None:
        return _decimal_text(round_decimals(value, int(places)), int(places))
    wanted = spec.get("written_sigfigs")
    if wanted is not None:
        return _scientific_text(value, int(wanted))
    return None


def validate_written(spec: Mapping[str, Any]) -> list[str]:
    """Problems with the written_sigfigs/written_decimals keys."""
    problems = []
    if "written_sigfigs" in spec and not _positive_int(spec["written_sigfigs"]):
        problems.append("'written_sigfigs' must be a whole number from 1 to 17")
    if "written_decimals" in spec and not _whole(spec["written_decimals"], 0, 15):
        problems.append("'written_decimals' must be a whole number from 0 to 15")
    return problems


def _no_real_value(expr: Expr) -> str:
    """Why a constant answer has no real value: complex (``sqrt(-4)`` is 2i, in a part that
    takes real numbers) or undefined."""
    value = complex_evaluate(expr)
    if value is not None and not (value.exact and value.imag == 0):
        return (f"'{expr.to_text()}' is not a real number (it is {format_complex(value)}): "
                f"this part takes real numbers")
    return ("this has no finite value (a division by zero, or the log or square root of a "
            "negative number?)")


def _decimal_text(value: Fraction, places: int) -> str:
    """An exact multiple of 10^-places written with exactly that many decimals."""
    scaled = abs(value) * 10**places
    digits = str(scaled.numerator // scaled.denominator).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    if places == 0:
        return sign + digits
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def _scientific_text(value: Fraction, figures: int) -> str:
    """``value`` written as d.ddd...e±N with ``figures`` significant figures (exactly when
    it has at most that many, rounded half away from zero otherwise)."""
    if value == 0:
        return "0." + "0" * figures
    exponent = magnitude(value)
    quantum = Fraction(10) ** (exponent - figures + 1)
    rounded = round_half_away(value, quantum)
    if magnitude(rounded) > exponent:
        exponent += 1
        quantum *= 10
        rounded = round_half_away(value, quantum)
    digits = str(abs(rounded / quantum).numerator)
    mantissa = digits[0] + ("." + digits[1:] if figures > 1 else "")
    sign = "-" if rounded < 0 else ""
    return f"{sign}{mantissa}e{exponent}"


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
    if "feedback_incorrect" in spec or not (value.is_finite and reference.is_finite):
        return base
    answer, expected = value.best(), reference.best()
    if expected != 0 and tolerance.accepts(-value, reference):
        return f"{base} " + gettext_noop("Check the sign of your answer.")
    if answer != 0 and expected != 0:
        ratio = log10_abs(expected) - log10_abs(answer)
        k = round(ratio)
        if k != 0 and abs(k) <= 400 and abs(ratio - k) < 0.01:
            scaled = value.scaled(Fraction(10) ** k)
            if tolerance.accepts(scaled, reference):
                return f"{base} " + gettext_noop(
                    "Check the powers of ten: your answer is off by a factor of 10^%(k)s."
                ) % {"k": abs(k)}
    if tolerance.near(value, reference):
        return f"{base} {near_miss_text(tolerance)}"
    return base


def near_miss_text(tolerance: Tolerance) -> str:
    """What a near miss is told: that it is close, and the precision the part asks for."""
    if tolerance.is_default:
        asked = ("the exact value is asked: give more digits, or write it as a fraction or "
                 "an expression")
    else:
        asked = f"the answer must be right {tolerance.describe()}"
    return f"Close, but not within the precision asked: {asked}."
