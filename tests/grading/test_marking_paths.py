"""The marking rules of issue 24 reach students by every path: a content module that uses
each rule syncs (tests/fixtures/marking), check_answers grades its parts, and a chain of
parts (scores -> weight -> context) carries a slip forward through the answer path."""

import json
from pathlib import Path

import pytest

from courses.models import Course, Exercise, Part
from courses.services import content_sync
from grading.batch import answers_check
from grading.services import submission_create
from grading.variant_assignment import variant_for

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "marking"


@pytest.fixture
def marking_module():
    content_sync(root=FIXTURE)
    return Exercise.objects.get(slug="demo-attention-chain").module


def _check(exercise: str, part: str, answer: str, **extra) -> dict:
    line = {"id": 1, "exercise": exercise, "part": part, "answer": answer, **extra}
    (result,) = answers_check([json.dumps(line)])
    return result


def test_the_fixture_module_syncs_with_every_rule(marking_module):
    specs = [p.spec for p in Part.objects.filter(exercise__module=marking_module)]
    keys = {k for spec in specs for k in spec}
    assert {"form", "form_credit", "required_functions", "forbidden_operators",
            "equivalent_up_to", "rename_variables", "partial_credit",
            "carried_credit"} <= keys


@pytest.mark.parametrize(("exercise", "part", "answer", "outcome", "tag"), [
    ("demo-forms", "expand", "(x+3)^2", "partial", "form:expanded"),
    ("demo-forms", "expand", "x^2 + 6x + 9", "correct", None),
    ("demo-forms", "factor", "x^2 - 9", "incorrect", "form:factored"),
    ("demo-forms", "factor", "(x+3)(x-3)", "correct", None),
    ("demo-forms", "fraction", "1/(x-1) + 1/(x+1)", "incorrect", "form:single_fraction"),
    ("demo-forms", "fraction", "2x/(x^2-1)", "correct", None),
    ("demo-forms", "rational", "1/sqrt(2)", "incorrect", "form:rationalised"),
    ("demo-forms", "square", "x^2 - 6x + 10", "incorrect", "form:completed_square"),
    ("demo-forms", "log", "x^k", "invalid", None),
    ("demo-forms", "log", "exp(k ln(x))", "correct", None),
    ("demo-relations", "normal", "y - 2x", "correct", None),
    ("demo-relations", "antiderivative", "x^3/3 + 5", "correct", None),
    ("demo-relations", "antiderivative", "-x^3/3", "partial", "rule:sign"),
    ("demo-relations", "rename", "t^2 + 1", "correct", None),
    ("demo-relations", "eigenvectors", "[[1, 1], [-1, 1]]", "correct", None),
    ("demo-relations", "eigenvectors", "[1 1; 1 -1]", "correct", None),
    ("demo-relations", "eigenvectors", "[[1, 1], [1, 1]]", "incorrect", None),
    ("demo-relations", "basis", "[[1, 2], [3, 4]]", "partial", "rule:transpose"),
])
def test_check_answers_marks_each_rule(marking_module, exercise, part, answer, outcome, tag):
    result = _check(exercise, part, answer)
    assert (result["outcome"], result["misconception"]) == (outcome, tag), result


def test_a_slip_in_the_scores_is_carried_to_the_weight_and_the_context(marking_module, alice):
    course = Course.objects.create(slug="marking", title="Marking", module=marking_module)
    course.enrollments.create(user=alice, role="student")
    parts = {p.key: p for p in Part.objects.select_related("exercise")
             .filter(exercise__slug="demo-attention-chain")}
    params = variant_for(student=alice, course=course, exercise=parts["scores"].exercise).params
    q, k1, k2, v1, v2 = (params[n] for n in ("q", "k1", "k2", "v1", "v2"))
    import math

    slip = [q * k1 + 1, q * k2]  # a slip in the first score
    scores = submission_create(student=alice, course=course, part=parts["scores"],
                               raw_answer=f"[{slip[0]}, {slip[1]}]")
    assert scores.outcome == "incorrect"
    weight = math.exp(slip[0]) / (math.exp(slip[0]) + math.exp(slip[1]))
    w = submission_create(student=alice, course=course, part=parts["weight"],
                          raw_answer=f"{weight:.4f}")
    assert (w.outcome, w.score) == ("partial", 0.75), w.feedback
    assert "Marked using your answer to (scores)" in w.feedback
    context = submission_create(student=alice, course=course, part=parts["context"],
                                raw_answer=f"{weight * v1 + (1 - weight) * v2:.4f}")
    assert (context.outcome, context.score) == ("partial", 0.75), context.feedback
