"""Checkers, one per answer type, pure Python (no Django): the registry and ``grade``.

``CHECKERS[type].parse(raw, spec)`` reads an answer or raises ``FormatError`` (outcome
"invalid": not graded, no attempt used); ``check(answer, spec, params)`` returns a
``Verdict``. ``grade`` does both and never lets a FormatError escape. The spec vocabulary is
documented in README.md beside this file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from grading.checkers.alternatives import alternative_problems, check_alternatives
from grading.checkers.base import Answer, Checker, Verdict
from grading.checkers.choice import ChoiceChecker
from grading.checkers.complex import ComplexChecker, uses_complex
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
from grading.checkers.plus_minus import PlusMinusNumeric, PlusMinusSymbolic
from grading.checkers.quantities import round_sigfigs
from grading.checkers.quantity import QuantityChecker
from grading.checkers.sets import SetChecker
from grading.checkers.strings import StringChecker
from grading.checkers.text import TextChecker
from grading.checkers.vector import VectorChecker

__all__ = [
    "CHECKERS",
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

# Bump when a change could change a grade, so stored verdicts say which grader made them.
GRADER_VERSION = "2.6.0"

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
    "item_list": ItemListChecker(),
}

_COMPLEX = ComplexChecker()

ResultOutcome = Literal["correct", "partial", "incorrect", "review", "invalid"]


@dataclass(frozen=True)
class Result:
    """What ``grade`` returns: a Verdict's fields, or outcome "invalid" with the message.

    ``position`` (1-based character, or None) says where an invalid answer went wrong;
    ``latex`` is how we read the answer, for display.
    """

    outcome: ResultOutcome
    score: float | None
    feedback: str
    misconception: str | None = None
    concepts_found: list[str] = field(default_factory=list)
    canonical: str = ""
    latex: str = ""
    position: int | None = None
    grader_version: str = GRADER_VERSION

    @property
    def is_valid(self) -> bool:
        """False when the answer could not be read (no attempt is used)."""
        return self.outcome != "invalid"

def _checker(spec: Mapping[str, Any]) -> Checker[Any]:
    if spec.get("latex"):
        return LatexInput(_plain_checker(spec))  # LaTeX answers and keys (latex_input.py)
    return _plain_checker(spec)


def _plain_checker(spec: Mapping[str, Any]) -> Checker[Any]:
    answer_type = spec.get("type")
    if not isinstance(answer_type, str) or answer_type not in CHECKERS:
        raise ValueError(f"unknown answer type {answer_type!r}")
    if answer_type == "numeric" and "units" in spec:
        return CHECKERS["quantity"]  # a numeric part with units is a quantity
    if uses_complex(spec):
        return _COMPLEX  # numeric or symbolic over the complex numbers
    return CHECKERS[answer_type]


def checker_for(spec: Mapping[str, Any]) -> Checker[Any]:
    """The checker that grades ``spec`` (its type's, or the quantity checker for a numeric
    part with ``units``, or the complex checker where an ``imaginary_unit`` is set);
    ValueError for an unknown type."""
    return _checker(spec)


def grade(raw: str, spec: Mapping[str, Any], params: Mapping[str, Any] | None = None) -> Result:
    """Parse and check one raw answer; an unreadable answer gives outcome "invalid".

    Raises ValueError only for a broken spec (unknown type, uncomputable reference), which
    content validation is there to prevent.
    """
    checker = _checker(spec)
    if _left_empty(raw, spec):
        return _empty_result(spec)
    try:
        answer = checker.parse(raw, spec)
        verdict = checker.check(answer, spec, params or {})
        verdict = check_alternatives(checker, answer, spec, params or {}, verdict)
    except FormatError as exc:
        return Result("invalid", None, exc.message, position=exc.position)
    return Result(
        outcome=verdict.outcome,
        score=verdict.score,
        feedback=verdict.feedback,
        misconception=verdict.misconception,
        concepts_found=list(verdict.concepts_found),
        canonical=verdict.canonical or answer.canonical,
        latex=answer.latex,
    )


def grade_keyed(raw: str, spec: Mapping[str, Any],
                params: Mapping[str, Any] | None = None) -> tuple[Result, str | None]:
    """``grade`` and ``answer_key`` of one raw answer, reading it once (the answer path
    needs both: the verdict, and whether it repeats an earlier answer)."""
    checker = _checker(spec)
    if _left_empty(raw, spec):
        return _empty_result(spec), "empty"
    try:
        answer = checker.parse(raw, spec)
    except FormatError as exc:
        return Result("invalid", None, exc.message, position=exc.position), None
    key = _key_of(answer)
    try:
        verdict = checker.check(answer, spec, params or {})
        verdict = check_alternatives(checker, answer, spec, params or {}, verdict)
    except FormatError as exc:
        return Result("invalid", None, exc.message, position=exc.position), key
    return Result(
        outcome=verdict.outcome,
        score=verdict.score,
        feedback=verdict.feedback,
        misconception=verdict.misconception,
        concepts_found=list(verdict.concepts_found),
        canonical=verdict.canonical or answer.canonical,
        latex=answer.latex,
    ), key


def answer_key(raw: str, spec: Mapping[str, Any]) -> str | None:
    """What makes two answers to a part the same answer, or None if `raw` is unreadable.

    Numbers compare by value (0.5, 0.50 and 1/2 are one answer; 12 significant digits), every
    other answer by its canonical form. Used so that repeating an answer costs no attempt.
    """
    if _left_empty(raw, spec):
        return "empty"
    try:
        answer = _checker(spec).parse(raw, spec)
    except FormatError:
        return None
    return _key_of(answer)


def _left_empty(raw: object, spec: Mapping[str, Any]) -> bool:
    """An empty answer to a part whose author allows one (STACK's "allow empty" input)."""
    return bool(spec.get("allow_empty")) and (not isinstance(raw, str) or not raw.strip())


def _empty_result(spec: Mapping[str, Any]) -> Result:
    """An allowed empty answer is graded, worth the part's ``empty_credit`` (default 0):
    an author sets 1 where leaving the box empty is the answer ("no such value")."""
    credit = float(spec.get("empty_credit", 0) or 0)
    if credit >= 1:
        return Result("correct", 1.0, str(spec.get("feedback_correct", "Correct.")))
    outcome: ResultOutcome = "partial" if credit > 0 else "incorrect"
    return Result(outcome, credit, str(spec.get("empty_feedback", "You left this empty.")),
                  misconception="empty")


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
        checker = _checker(spec)
    except ValueError as exc:
        return [str(exc)]
    return checker.validate_spec(spec) + alternative_problems(checker, spec)


def self_check(spec: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
    """Problems found by grading the spec's own key in one variant (see Checker.self_check)."""
    problems = validate_spec(spec)
    if problems:
        return problems
    checker = _checker(spec)
    return checker.self_check(spec, params) + alternative_problems(checker, spec, params)
