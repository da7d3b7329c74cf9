"""A misconception clears when the next two parts carrying its tag are right at the first
attempt; the class counts per tag and a student's open tags, at a fixed number of queries."""

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from courses.models import Enrollment, Part
from grading.misconception_clearing import (
    FirstTry,
    misconception_clearing,
    open_misconceptions,
    tag_states,
)
from grading.models import Submission
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db
C, W = Submission.Outcome.CORRECT, Submission.Outcome.INCORRECT
T0 = timezone.now() - timedelta(days=1)


def test_tag_states_take_the_first_tries_after_the_tag_was_shown() -> None:
    at = [T0 + timedelta(minutes=m) for m in range(5)]
    tries = [FirstTry(1, at[0], True), FirstTry(2, at[2], True), FirstTry(3, at[3], True),
             FirstTry(4, at[4], False)]
    [state] = tag_states({"t": at[1]}, tries, {"t": {1, 2, 3}})
    assert state.since == (True, True) and state.cleared  # part 1 came before: not counted
    [late] = tag_states({"t": at[1]}, tries, {"t": {2, 4}})
    assert late.since == (True, False) and not late.cleared


@pytest.fixture
def carriers(course) -> tuple[Part, Part, Part]:
    """apply-1 shows linear-decay; two other parts are made to carry the same tag."""
    shown = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    others = list(Part.objects.filter(exercise__module_id=course.module_id)
                  .exclude(pk=shown.pk).order_by("pk")[:2])
    for part in others:
        part.spec = {**part.spec, "misconceptions": [
            *part.spec.get("misconceptions", []),
            {"answer": "12345", "tag": "linear-decay", "feedback": "Not linear."}]}
        part.save()
    return shown, others[0], others[1]


def _answers(course, plan: dict[str, list[tuple[Part, str, str]]]) -> dict[str, int]:
    """plan: username -> [(part, outcome, tag)], one minute apart."""
    ids = {}
    for name, answers in plan.items():
        user: Any = UserFactory(username=name)
        EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
        ids[name] = user.pk
        for minute, (part, outcome, tag) in enumerate(answers):
            made = Submission.objects.create(student=user, course=course, part=part,
                                              raw_answer="x", outcome=outcome,
                                              score=1.0 if outcome == C else 0.0,
                                              misconception=tag, counts_as_attempt=True)
            Submission.objects.filter(pk=made.pk).update(
                created_at=T0 + timedelta(minutes=minute))
    return ids


def test_the_class_counts_who_showed_and_who_cleared_each_tag(course, carriers):
    shown, q1, q2 = carriers
    ids = _answers(course, {
        "cleared": [(shown, W, "linear-decay"), (q1, C, ""), (q2, C, "")],
        "wrong-first": [(shown, W, "linear-decay"), (q1, W, ""), (q1, C, ""), (q2, C, "")],
        "one-so-far": [(shown, W, "linear-decay"), (q1, C, "")],
        "before": [(q1, C, ""), (shown, W, "linear-decay"), (q2, C, "")],
    })
    [row] = [r for r in misconception_clearing(course=course) if r.tag == "linear-decay"]
    assert (row.showed, row.cleared, row.open) == (4, 1, 3)
    assert row.label.startswith("Treats the decay as linear")
    assert open_misconceptions(course=course, student_id=ids["cleared"]) == []
    [still] = open_misconceptions(course=course, student_id=ids["wrong-first"])
    assert still.tag == "linear-decay" and still.since == (False, True)


def test_a_tag_shown_again_opens_again(course, carriers):
    shown, q1, q2 = carriers
    ids = _answers(course, {"again": [(shown, W, "linear-decay"), (q1, C, ""), (q2, C, ""),
                                      (shown, W, "linear-decay")]})
    [state] = open_misconceptions(course=course, student_id=ids["again"])
    assert state.since == ()


def test_the_class_counts_cost_the_same_queries_for_any_class(course, carriers):
    shown, q1, q2 = carriers
    _answers(course, {"a": [(shown, W, "linear-decay"), (q1, C, "")]})
    with CaptureQueriesContext(connection) as small:
        misconception_clearing(course=course)
    _answers(course, {f"s{i}": [(shown, W, "linear-decay"), (q1, C, ""), (q2, W, "")]
                      for i in range(30)})
    with CaptureQueriesContext(connection) as large:
        misconception_clearing(course=course)
    assert len(small) == len(large) <= 5
