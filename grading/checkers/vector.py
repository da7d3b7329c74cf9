# ruff: noqa: RUF002 - Greek letters and maths symbols are the point here
"""Vector answers: a fixed number of reals, ``[1.9, 0.7]``, ``(1.9, 0.7)`` or ``1.9, 0.7``.

Brackets are never ignored: ``(0, 1]`` is an interval and ``{1, 2}`` a set, so a vector
whose outer brackets do not pair (or are braces) is invalid with a message, not read as
``[0, 1]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from grading.checkers.base import (
    Answer,
    Checker,
    Verdict,
    feedback,
    functions_of,
    misconception_list,
    names_of,
)
from grading.checkers.mathparse import MAX_LENGTH, Expr, FormatError, parse
from grading.checkers.mathparse.characters import normalize
from grading.checkers.numeric import (
    TOLERANCE_KEYS,
    Tolerance,
    format_value,
    misconception_collisions,
    validate_misconception_tolerances,
    validate_tolerance,
)
from grading.checkers.refs import Number, answer_number, reference_numbers

__all__ = ["VectorAnswer", "VectorChecker", "split_elements"]

MAX_VECTOR_LENGTH = 2000
_PAIRS = {"(": ")", "[": "]", "{": "}"}


def _structure(raw: str) -> str:
    """``raw`` with full-width brackets and commas (``［1，2］``) read as ASCII, one character
    for one, so offsets stay those of the student's text."""
    out = []
    for ch in raw:
        form = normalize(ch)[0] if not ch.isascii() else ch
        out.append(form if len(form) == 1 and form in "()[]{}," else ch)
    return "".join(out)


def split_elements(raw: str) -> list[tuple[str, int]]:
    """Top-level comma-separated elements with their 0-based offsets, outer brackets removed."""
    text = _structure(raw)
    start = len(text) - len(text.lstrip())
    end = len(text.rstrip())
    if end <= start:
        raise FormatError("empty answer", None)
    if text[start] in _PAIRS and _matching_close(text, start) == end - 1 \
            and _top_level_commas(text, start + 1, end - 1):
        _check_outer_brackets(raw, text, start, end - 1)
        start, end = start + 1, end - 1
    elements = []
    depth = 0
    piece_start = start
    for i in range(start, end):
        ch = text[i]
        if ch in _PAIRS:
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            elements.append((raw[piece_start:i], piece_start))
            piece_start = i + 1
    elements.append((raw[piece_start:end], piece_start))
    return elements


def _check_outer_brackets(raw: str, text: str, start: int, close: int) -> None:
    """Refuse outer brackets that are not a vector's: a mismatched pair such as ``(0, 1]``
    (an interval) or braces ``{1, 2}`` (a set)."""
    opener, closer = text[start], text[close]
    if _PAIRS[opener] != closer:
        raise FormatError(
            f"the bracket {raw[start]!r} at character {start + 1} is closed by "
            f"{raw[close]!r} at character {close + 1}: a vector is written in matching "
            f"brackets, [1, 2] or (1, 2) ({opener}a, b{closer} would be an interval)",
            close + 1,
        )
    if opener == "{":
        raise FormatError(
            f"braces at character {start + 1} write a set, whose order does not count: a "
            f"vector is written [1, 2] or (1, 2)",
            start + 1,
        )


def _matching_close(text: str, open_index: int) -> int | None:
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] in _PAIRS:
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return None


def _top_level_commas(text: str, start: int, end: int) -> bool:
    depth = 0
    for i in range(start, end):
        if text[i] in _PAIRS:
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
        elif text[i] == "," and depth == 0:
            return True
    return False


@dataclass(frozen=True)
class VectorAnswer(Answer):
    """The elements as parsed expressions."""

    exprs: tuple[Expr, ...] = ()


class VectorChecker(Checker[VectorAnswer]):
    """A list of reals compared elementwise with the numeric tolerances."""

    type_name = "vector"
    spec_keys = frozenset({*TOLERANCE_KEYS, "partial", "allow_infinity"})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> VectorAnswer:
        raw = raw or ""
        if len(raw) > MAX_VECTOR_LENGTH:
            raise FormatError(
                f"the answer is too long (at most {MAX_VECTOR_LENGTH} characters)", None
            )
        elements = split_elements(raw)
        variables = names_of(spec, "variables")
        functions = functions_of(spec)
        infinity = bool(spec.get("allow_infinity"))
        exprs = []
        for index, (text, offset) in enumerate(elements, start=1):
            if not text.strip():
                position = offset + 1
                raise FormatError(
                    f"number {index} is missing (two commas in a row, or a comma at the "
                    f"end?) at character {position}",
                    position,
                )
            exprs.append(parse(text, variables=variables, functions=functions, offset=offset,
                               max_length=MAX_LENGTH, infinity=infinity))
        expected = _expected_length(spec)
        if expected is not None and len(exprs) != expected:
            raise FormatError(f"expected {expected} numbers, got {len(exprs)}", None)
        canonical_parts = []
        for expr in exprs:
            text_form = expr.to_text()
            if not expr.free_variables:
                value = answer_number(expr, {})
                if value.is_nan or (value.is_infinite and not infinity):
                    raise FormatError(f"'{text_form}' has no finite value", None)
                formatted = format_value(value)
                if formatted != text_form:
                    text_form = f"{text_form} ≈ {formatted}"
            canonical_parts.append(text_form)
        latex = r"\left[" + ", ".join(e.to_latex() for e in exprs) + r"\right]"
        return VectorAnswer(raw=raw, canonical="[" + ", ".join(canonical_parts) + "]",
                            latex=latex, exprs=tuple(exprs))

    def check(self, answer: VectorAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        params = params or {}
        values = [answer_number(e, params) for e in answer.exprs]
        if any(v.is_nan or (v.is_infinite and not spec.get("allow_infinity")) for v in values):
            return Verdict(0.0, "incorrect", "An element has no finite value.", None, [],
                           answer.canonical)
        reference = reference_numbers(spec["reference"], params)
        if len(values) != len(reference):
            # Only possible when the reference is one list-valued expression, whose length
            # is known with the parameters; grade() turns this into "invalid".
            raise FormatError(f"expected {len(reference)} numbers, got {len(values)}", None)
        tolerance = Tolerance.from_spec(spec)
        right = [tolerance.accepts(v, r) for v, r in zip(values, reference, strict=True)]
        if all(right):
            return Verdict(1.0, "correct", feedback(spec, True), None, [], answer.canonical)
        for item in misconception_list(spec):
            try:
                target = reference_numbers(item.get("answer"), params)
            except ValueError:
                continue
            matching = tolerance.for_misconception(item)
            if len(target) == len(values) and all(
                matching.accepts(v, t) for v, t in zip(values, target, strict=True)
            ):
                return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                               str(item.get("tag")), [], answer.canonical)
        wrong = [str(i) for i, ok in enumerate(right, start=1) if not ok]
        message = feedback(spec, False)
        if "feedback_incorrect" not in spec:
            noun = "Element" if len(wrong) == 1 else "Elements"
            verb = "is" if len(wrong) == 1 else "are"
            message = f"{message} {noun} {', '.join(wrong)} {verb} not within the tolerance."
        if spec.get("partial") and any(right):
            score = sum(right) / len(right)
            return Verdict(score, "partial", message, None, [], answer.canonical)
        return Verdict(0.0, "incorrect", message, None, [], answer.canonical)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        values = reference_numbers(spec["reference"], params)
        return "[" + ", ".join(_plain(n) for n in values) + "]"

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        if "reference" not in spec:
            problems.append("'reference' is missing")
        else:
            value = spec["reference"]
            if isinstance(value, list):
                if not value or not all(
                    isinstance(v, str | int | float) and not isinstance(v, bool) for v in value
                ):
                    problems.append("'reference' must be a non-empty list of expressions")
            elif not isinstance(value, str) or not value.strip():
                problems.append("'reference' must be a list of expressions (or one expression "
                                "giving a list)")
        problems += validate_tolerance(spec)
        for flag in ("partial", "allow_infinity"):
            if flag in spec and not isinstance(spec[flag], bool):
                problems.append(f"'{flag}' must be true or false")
        problems += validate_misconception_tolerances(spec)
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        return misconception_collisions(spec, params, reference_numbers)


def _expected_length(spec: Mapping[str, Any]) -> int | None:
    reference = spec.get("reference")
    if isinstance(reference, list):
        return len(reference)
    return None


def _plain(number: Number) -> str:
    if number.is_infinite:
        return "oo" if number.value > 0 else "-oo"
    if number.exact is not None and number.exact.denominator == 1:
        return str(number.exact.numerator)
    if number.exact is not None:
        return f"{number.exact.numerator}/{number.exact.denominator}"
    return repr(number.value)
