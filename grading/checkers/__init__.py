"""Checkers, one per answer type, pure Python (no Django): the registry and ``grade``.

``checker_for(spec)`` chooses a part's checker: the first ``DISPATCH`` row that applies, else
``CHECKERS[type]``. Its ``parse(raw, spec)`` reads an answer or raises ``FormatError``
(outcome "invalid": not graded, no attempt used); ``check(answer, spec, params)`` returns a
``Verdict``. ``grade`` runs the marking pipeline (pipeline.py: those two, then the stages
every type shares) and never lets a FormatError escape. The spec vocabulary is documented in
README.md beside this file; how a type plugs in, in docs/adding-an-answer-type.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from grading.checkers.base import Answer, Checker, Verdict
from grading.checkers.choice import ChoiceChecker
from grading.checkers.complex import ComplexChecker, uses_complex
from grading.checkers.decimal_comma import DecimalCommaInput
from grading.checkers.equation import EquationChecker
from grading.checkers.integer import IntegerAnswer, IntegerChecker
from grading.checkers.item_list import ItemListChecker
from grading.checkers.latex_input import LatexInput
from grading.checkers.lists import ListChecker
from grading.checkers.logic import LogicChecker
from grading.checkers.matching import MatchingChecker
from grading.checkers.mathparse import FormatError
from grading.checkers.matrix import MatrixChecker
from grading.checkers.numeric import NumericAnswer
from grading.checkers.pipeline import (
    GRADER_VERSION,
    Result,
    grade_keyed_with,
    grade_with,
    left_empty,
    self_check_with,
    validate_with,
)
from grading.checkers.plus_minus import PlusMinusNumeric, PlusMinusSymbolic
from grading.checkers.quantities import round_sigfigs
from grading.checkers.quantity import QuantityChecker
from grading.checkers.sets import SetChecker
from grading.checkers.strings import StringChecker
from grading.checkers.text import TextChecker
from grading.checkers.vector import VectorChecker

__all__ = [
    "CHECKERS",
    "DISPATCH",
    "GRADER_VERSION",
    "Answer",
    "Checker",
    "FormatError",
    "Result",
    "Verdict",
    "answer_key",
    "checker_for",
    "grade",
    "grade_keyed",
    "self_check",
    "validate_spec",
]


def checker_for(spec: Mapping[str, Any]) -> Checker[Any]:
    """The checker that grades ``spec``, chosen by ``DISPATCH`` (first matching row, else
    ``CHECKERS[type]``), wrapped by ``LatexInput`` when ``latex = true``; ValueError for an
    unknown type."""
    answer_type = spec.get("type")
    if not isinstance(answer_type, str) or answer_type not in CHECKERS:
        raise ValueError(f"unknown answer type {answer_type!r}")
    checker = next((row.checker for row in DISPATCH if row.applies(answer_type, spec)),
                   CHECKERS[answer_type])
    if "decimal_comma" in spec and answer_type in DECIMAL_COMMA_TYPES:
        checker = DecimalCommaInput(checker, separators=answer_type != "matrix")
    return LatexInput(checker) if spec.get("latex") else checker


#: The answer types a decimal comma applies to (``decimal_comma = true``): those whose answer
#: is maths (decimal_comma.py); a matrix keeps ';' between rows.
DECIMAL_COMMA_TYPES = frozenset({"numeric", "symbolic", "vector", "integer", "matrix",
                                 "quantity", "set", "list", "equation"})


CHECKERS: dict[str, Checker[Any]] = {
    "numeric": PlusMinusNumeric(),    # NumericChecker, reading ± (plus_minus.py)
    "symbolic": PlusMinusSymbolic(),  # SymbolicChecker, reading ±
    "vector": VectorChecker(),
    "integer": IntegerChecker(),
    "choice": ChoiceChecker(),
    "text": TextChecker(),
    "matrix": MatrixChecker(),
    "quantity": QuantityChecker(),
    "set": SetChecker(),
    "list": ListChecker(),
    "string": StringChecker(),
    "equation": EquationChecker(),
    "matching": MatchingChecker(),
    "logic": LogicChecker(),
    "item_list": ItemListChecker(checker_for),  # each item by its own spec's checker
}


@dataclass(frozen=True)
class Route:
    """One dispatch rule: a part of type ``types`` whose spec ``when`` holds is graded by
    ``checker`` instead of its type's."""

    types: frozenset[str]
    condition: str  # the rule in words, as docs/adding-an-answer-type.md's table says it
    when: Callable[[Mapping[str, Any]], bool]
    checker: Checker[Any]

    def applies(self, answer_type: str, spec: Mapping[str, Any]) -> bool:
        """Does this rule choose the checker for a part of ``answer_type`` with ``spec``?"""
        return answer_type in self.types and self.when(spec)


#: The registry's dispatch rules, first match wins; a part no row matches is graded by
#: ``CHECKERS[type]``. Whatever the checker, ``latex = true`` wraps it in ``LatexInput``
#: (LaTeX answers and keys read, then graded by that checker).
DISPATCH: tuple[Route, ...] = (
    Route(frozenset({"numeric"}), "`units` is set", lambda spec: "units" in spec,
          CHECKERS["quantity"]),
    Route(frozenset({"numeric", "symbolic"}), "`imaginary_unit` is set", uses_complex,
          ComplexChecker()),
)


def grade(raw: str, spec: Mapping[str, Any], params: Mapping[str, Any] | None = None) -> Result:
    """Parse and check one raw answer through the marking pipeline (``pipeline.py``); an
    unreadable answer gives outcome "invalid".

    Raises ValueError only for a broken spec (unknown type, uncomputable reference), which
    content validation is there to prevent.
    """
    return grade_with(checker_for(spec), raw, spec, params)


def grade_keyed(raw: str, spec: Mapping[str, Any],
                params: Mapping[str, Any] | None = None) -> tuple[Result, str | None]:
    """``grade`` and ``answer_key`` of one raw answer, reading it once (the answer path
    needs both: the verdict, and whether it repeats an earlier answer)."""
    result, answer = grade_keyed_with(checker_for(spec), raw, spec, params)
    if left_empty(raw, spec):
        return result, "empty"
    return result, _key_of(answer) if answer is not None else None


def answer_key(raw: str, spec: Mapping[str, Any]) -> str | None:
    """What makes two answers to a part the same answer, or None if `raw` is unreadable.

    Numbers compare by value (0.5, 0.50 and 1/2 are one answer; 12 significant digits), every
    other answer by its canonical form. Used so that repeating an answer costs no attempt.
    """
    if left_empty(raw, spec):
        return "empty"
    try:
        answer = checker_for(spec).parse(raw, spec)
    except FormatError:
        return None
    return _key_of(answer)


def _key_of(answer: Answer) -> str:
    if isinstance(answer, NumericAnswer) and answer.value is not None:
        number = answer.value
        if number.is_finite and not 1e-300 < abs(number.value) < 1e300 \
                and number.best() != 0:  # beyond the float range: 12 digits of the exact value
            return f"number:{round_sigfigs(number.best(), 12)[0]}"
        return f"number:{number.value:.12g}"
    if isinstance(answer, IntegerAnswer):
        return f"number:{answer.value}"
    return f"text:{answer.canonical}"


def validate_spec(spec: Mapping[str, Any]) -> list[str]:
    """Problems with a part spec's shape (an empty list means it is well formed)."""
    if not isinstance(spec, Mapping):
        return ["a part spec must be a table"]
    try:
        checker = checker_for(spec)
    except ValueError as exc:
        return [str(exc)]
    return validate_with(checker, spec)


def self_check(spec: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
    """Problems found by grading the spec's own key in one variant (see Checker.self_check)."""
    if not isinstance(spec, Mapping):
        return ["a part spec must be a table"]
    try:
        checker = checker_for(spec)
    except ValueError as exc:
        return [str(exc)]
    return self_check_with(checker, spec, params)
