"""Grading a closed attempt: every part of every question of the paper, with the checkers
and the student's variant, from the answers saved when it closed (a part never saved is
unanswered and scores 0; an unreadable answer scores 0 too, as an exam cannot be retried)."""

from collections.abc import Mapping
from typing import Any

from exams.models import Question
from grading.checkers import Result, grade
from grading.checkers.carried import carried_keys, earlier_from_answers, grade_carried

UNANSWERED = "unanswered"


def part_result(raw: str, spec: Mapping[str, Any], params: Mapping[str, Any],
                given: Mapping[str, str], specs: Mapping[str, Mapping[str, Any]]) -> Result:
    """The verdict of `raw` for one part; a part whose key uses the question's earlier parts
    is marked against the student's own answers to them (`given`: part key -> raw)."""
    if carried_keys(spec):
        return grade_carried(raw, spec, params, earlier_from_answers(spec, params, given, specs))
    return grade(raw, spec, params)


def question_results(question: Question, params: Mapping[str, Any],
                     given: Mapping[str, str]) -> dict[str, tuple[str, float, str]]:
    """(outcome, score 0..1, feedback) of each part of `question`, by part key."""
    specs = {p["key"]: p for p in question.parts}
    out: dict[str, tuple[str, float, str]] = {}
    for spec in question.parts:
        raw = given.get(spec["key"], "")
        if not raw.strip():
            out[spec["key"]] = (UNANSWERED, 0.0, "Not answered.")
            continue
        try:
            result = part_result(raw, spec, params, given, specs)
        except Exception:  # a broken checker must not stop the attempt closing
            out[spec["key"]] = ("error", 0.0, "This answer could not be graded; your "
                                "instructor will look at it.")
            continue
        score = float(result.score) if result.score is not None else 0.0
        out[spec["key"]] = (str(result.outcome), score, result.feedback or "")
    return out
