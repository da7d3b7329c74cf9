"""Integer answers: exact counts such as ``1000``, ``1,000``, ``1 000``, ``1e3`` or ``10^3``."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
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
from grading.checkers.mathparse import FormatError, evaluate, exact_value, parse
from grading.checkers.mathparse.floats import float_of
from grading.checkers.numeric import validate_reference_scalar
from grading.checkers.refs import reference_number

__all__ = ["IntegerAnswer", "IntegerChecker", "integer_reference"]

# 1,000 / 1 000 / 1 000 (thin or no-break spaces) / 1'000 are thousands separators.
_GROUPED = re.compile(r"([+-]?)(\d{1,3}(?:([,\s'\u00a0\u202f\u2009])\d{3})(?:\3\d{3})*)")
_WHOLE = "a whole number is expected"

#: "1.000" or "12.500": a thousands point (as in much of Europe) or decimals? Ambiguous.
_POINT_GROUPED = re.compile(r"\s*[+-]?\d{1,3}(?:\.\d{3})+\s*")


@dataclass(frozen=True)
class IntegerAnswer(Answer):
    """The exact whole number."""

    value: int = 0


def _ungroup(raw: str) -> str:
    text = raw.strip()
    match = _GROUPED.fullmatch(text)
    if match:
        return match.group(1) + re.sub(r"\D", "", match.group(2))
    return text


class IntegerChecker(Checker[IntegerAnswer]):
    """An exact count; a non-whole value is invalid, not wrong."""

    type_name = "integer"
    spec_keys = frozenset()

    def parse(self, raw: str, spec: Mapping[str, Any]) -> IntegerAnswer:
        if _POINT_GROUPED.fullmatch(raw or ""):
            raise FormatError("is the point a thousands separator? Write the whole number "
                              "without it (for example 1000)", None)
        text = _ungroup(raw or "")
        expr = parse(text, variables=names_of(spec, "variables"), functions=functions_of(spec))
        if expr.free_variables:
            raise FormatError("a whole number is expected, not an expression with letters", None)
        exact = exact_value(expr)
        if exact is None:
            value = evaluate(expr, {})
            if not math.isfinite(value) or abs(value) > 2**53 or abs(value - round(value)) > 1e-9:
                raise FormatError(_WHOLE, None)
            whole = round(value)
        elif exact.denominator != 1:
            shown = float_of(exact)
            raise FormatError(f"{_WHOLE} (your answer is {shown:g})", None)
        else:
            whole = exact.numerator
        text_form = expr.to_text()
        canonical = str(whole) if text_form == str(whole) else f"{text_form} = {whole}"
        return IntegerAnswer(raw=raw, canonical=canonical, latex=expr.to_latex(), value=whole)

    def check(self, answer: IntegerAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        params = params or {}
        reference = integer_reference(spec["reference"], params)
        if answer.value == reference:
            return Verdict(1.0, "correct", feedback(spec, True), None, [], answer.canonical)
        for item in misconception_list(spec):
            try:
                target = integer_reference(item.get("answer"), params)
            except ValueError:
                continue
            if answer.value == target:
                return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                               str(item.get("tag")), [], answer.canonical)
        return Verdict(0.0, "incorrect", feedback(spec, False), None, [], answer.canonical)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        return str(integer_reference(spec["reference"], params))

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        problems += validate_reference_scalar(spec)
        problems += check_misconception_shapes(spec)
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        problems = []
        reference = integer_reference(spec["reference"], params)
        for index, item in enumerate(misconception_list(spec), start=1):
            try:
                target = integer_reference(item.get("answer"), params)
            except ValueError as exc:
                problems.append(f"'misconceptions' entry {index}: {exc}")
                continue
            if target == reference:
                problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') equals "
                                f"the reference")
        return problems


def integer_reference(text: object, params: Mapping[str, Any]) -> int:
    """An author's expression that must be a whole number in this variant."""
    number = reference_number(text, params)
    if number.exact is None or number.exact.denominator != 1:
        raise ValueError(f"'{text}' is not a whole number in this variant ({number.value:g})")
    return number.exact.numerator
