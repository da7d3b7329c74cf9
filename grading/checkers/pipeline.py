"""The marking pipeline every answer type plugs into, in one place.

A raw answer goes through these stages, in order (``grade_with``):

1. **empty**: an empty answer to a part with ``allow_empty`` is graded here, worth
   ``empty_credit``, before any reading;
2. **read**: ``checker.parse(raw, spec)`` gives an ``Answer`` or raises ``FormatError``
   (outcome "invalid": not graded, no attempt used);
3. **compare**: ``checker.check(answer, spec, params)`` gives the type's ``Verdict``: the key,
   its forms (``forms.py``), ``equivalent_up_to`` and ``partial_credit`` rules
   (``marking_rules.py``), which misconception matched (its tag and feedback) and the
   feedback;
4. **misconception credit**: a verdict tagged with one of the spec's ``misconceptions`` that
   sets ``credit`` scores that credit (``misconception_credit``), whatever the type;
5. **alternatives**: the best of that verdict and the spec's ``alternatives``
   (``alternatives.py``);
6. **result**: a ``Result``, with the answer's canonical reading and LaTeX.

A type decides only stages 2 and 3; the rules of stages 1, 4 and 5 hold for every type
because they live here. ``validate_with`` checks the shared keys of those stages for every
type, beside the type's own ``validate_spec``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from grading.checkers.alternatives import alternative_problems, check_alternatives
from grading.checkers.base import Answer, Checker, Verdict, is_number, misconception_list
from grading.checkers.mathparse import FormatError
from grading.checkers.mathparse.errors import gettext_noop

__all__ = [
    "GRADER_VERSION",
    "Result",
    "grade_keyed_with",
    "grade_with",
    "left_empty",
    "mark",
    "misconception_credit",
    "misconception_credit_problems",
    "self_check_with",
    "validate_with",
]

# Bump when a change could change a grade, so stored verdicts say which grader made them.
GRADER_VERSION = "2.6.0"

ResultOutcome = Literal["correct", "partial", "incorrect", "review", "invalid"]


@dataclass(frozen=True)
class Result:
    """What grading returns: a Verdict's fields, or outcome "invalid" with the message.

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


def misconception_credit(verdict: Verdict, spec: Mapping[str, Any]) -> Verdict:
    """Stage 4: ``verdict`` scored with the ``credit`` of the misconception it is tagged with.

    A wrong answer (outcome "incorrect" or "partial") that the type matched to a
    misconception whose entry sets ``credit`` earns exactly that credit, "partial" above 0;
    a verdict without such a tag, or one a person decides ("review"), is returned unchanged.
    Tags are unique per credit (``misconception_credit_problems``), so the tag names the entry.
    """
    if verdict.misconception is None or verdict.outcome not in ("incorrect", "partial"):
        return verdict
    for item in misconception_list(spec):
        if item.get("tag") == verdict.misconception and is_number(item.get("credit")):
            credit = float(item["credit"])
            return replace(verdict, score=credit,
                           outcome="partial" if credit > 0 else "incorrect")
    return verdict


def misconception_credit_problems(spec: Mapping[str, Any]) -> list[str]:
    """Problems with the misconceptions' ``credit``: a number from 0 to below 1, and one
    credit per tag (the verdict names a misconception by its tag)."""
    problems = []
    credits: dict[str, object] = {}
    for index, item in enumerate(misconception_list(spec), start=1):
        if "credit" not in item:
            continue
        credit = item["credit"]
        if not is_number(credit) or not 0 <= credit < 1:
            problems.append(f"'misconceptions' entry {index}: 'credit' must be a number from "
                            f"0 to below 1")
            continue
        tag = item.get("tag")
        if isinstance(tag, str):
            credits.setdefault(tag, credit)
    for index, item in enumerate(misconception_list(spec), start=1):
        tag = item.get("tag")
        if isinstance(tag, str) and tag in credits and item.get("credit") != credits[tag]:
            problems.append(f"'misconceptions' entry {index}: tag '{tag}' is given another "
                            f"'credit' by an earlier entry (one credit per tag)")
    return problems


def mark(checker: Checker[Any], answer: Answer, spec: Mapping[str, Any],
         params: Mapping[str, Any]) -> Verdict:
    """Stages 3 to 5 for a read answer: compare, misconception credit, alternatives.

    Raises FormatError when the answer, though read, cannot be compared (a stage-3 refusal)."""
    verdict = misconception_credit(checker.check(answer, spec, params), spec)
    return check_alternatives(checker, answer, spec, params, verdict)


def left_empty(raw: object, spec: Mapping[str, Any]) -> bool:
    """An empty answer to a part whose author allows one (STACK's "allow empty" input)."""
    return bool(spec.get("allow_empty")) and (not isinstance(raw, str) or not raw.strip())


def empty_result(spec: Mapping[str, Any]) -> Result:
    """Stage 1: an allowed empty answer is graded, worth the part's ``empty_credit`` (default
    0): an author sets 1 where leaving the box empty is the answer ("no such value")."""
    credit = float(spec.get("empty_credit", 0) or 0)
    if credit >= 1:
        return Result("correct", 1.0, str(spec.get("feedback_correct", gettext_noop("Correct."))))
    outcome: ResultOutcome = "partial" if credit > 0 else "incorrect"
    return Result(outcome, credit, str(spec.get("empty_feedback", gettext_noop("You left this empty."))),
                  misconception="empty")


def _result(verdict: Verdict, answer: Answer) -> Result:
    return Result(
        outcome=verdict.outcome,
        score=verdict.score,
        feedback=verdict.feedback,
        misconception=verdict.misconception,
        concepts_found=list(verdict.concepts_found),
        canonical=verdict.canonical or answer.canonical,
        latex=answer.latex,
    )


def grade_with(checker: Checker[Any], raw: str, spec: Mapping[str, Any],
               params: Mapping[str, Any] | None = None) -> Result:
    """Every stage for one raw answer with ``checker``; an unreadable answer gives outcome
    "invalid". Raises ValueError only for a broken spec (an uncomputable reference)."""
    if left_empty(raw, spec):
        return empty_result(spec)
    try:
        answer = checker.parse(raw, spec)
        return _result(mark(checker, answer, spec, params or {}), answer)
    except FormatError as exc:
        return Result("invalid", None, exc.message, position=exc.position)


def grade_keyed_with(checker: Checker[Any], raw: str, spec: Mapping[str, Any],
                     params: Mapping[str, Any] | None = None) -> tuple[Result, Answer | None]:
    """``grade_with``, also returning the read answer (None when empty or unreadable), so a
    caller can key it without reading it twice."""
    if left_empty(raw, spec):
        return empty_result(spec), None
    try:
        answer = checker.parse(raw, spec)
    except FormatError as exc:
        return Result("invalid", None, exc.message, position=exc.position), None
    try:
        return _result(mark(checker, answer, spec, params or {}), answer), answer
    except FormatError as exc:
        return Result("invalid", None, exc.message, position=exc.position), answer


def validate_with(checker: Checker[Any], spec: Mapping[str, Any]) -> list[str]:
    """Problems with a part spec for ``checker``: the type's own and the shared stages'."""
    return (checker.validate_spec(spec) + misconception_credit_problems(spec)
            + alternative_problems(checker, spec))


def self_check_with(checker: Checker[Any], spec: Mapping[str, Any],
                    params: Mapping[str, Any]) -> list[str]:
    """Problems found by grading the spec's own key in one variant (``Checker.self_check``),
    after ``validate_with``."""
    problems = validate_with(checker, spec)
    if problems:
        return problems
    return checker.self_check(spec, params) + alternative_problems(checker, spec, params)
