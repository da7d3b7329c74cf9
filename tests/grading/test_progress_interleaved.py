"""Two answers of one student to one part in flight at once (two tabs, a retry racing the
first request): A stored, B stored, then their verdicts in either order. After each verdict
the kept progress row, the student's totals and the class's wrong-answer sums equal a rebuild
from the submissions. Only the latest answer, with no other waiting for its first verdict,
may move the row by difference; a verdict on an older answer re-aggregates it.

The two requests are interleaved as the web processes would: each request's grading step
(`grading.services.submission_grade`, called by `submission_create` once the answer is
committed) is held back and run later, unchanged, with the arguments the request gave it.
"""

from collections.abc import Callable
from typing import Any

import pytest

from courses.models import Part
from grading import services
from grading.models import Submission
from grading.progress_rebuild import progress_rebuild
from tests.grading.test_progress import _answer, _counts, _kept

pytestmark = pytest.mark.django_db


@pytest.fixture
def held_grading(monkeypatch) -> list[Callable[[], Any]]:
    """Each answer `submission_create` stores is left ungraded; its grading step, with the
    request's own arguments, is appended to the returned list, to be run when the test says."""
    held: list[Callable[[], Any]] = []
    grade = services.submission_grade

    def hold(**kwargs: Any) -> Submission:
        held.append(lambda: grade(**kwargs))
        return kwargs["submission"]

    monkeypatch.setattr(services, "submission_grade", hold)
    return held


def _equal_to_a_rebuild(course, *, totals: bool = True) -> None:
    """The kept rows equal a rebuild (`totals` False: the progress rows only; the student's
    totals follow with a verdict, not with a stored answer)."""
    (parts, students), counts = _kept(course), _counts(course)
    progress_rebuild(course=course)
    assert _kept(course)[0] == parts
    if totals:
        assert _kept(course)[1] == students
    assert _counts(course) == counts


@pytest.mark.parametrize(("first", "second"), [
    ("wrong", "linear"),  # two wrong answers: the latest wrong one is the row's last wrong key
    ("right", "wrong"),  # right first: solved at the first attempt, whatever is graded first
    ("linear", "right"),
])
@pytest.mark.parametrize("order", ["older first", "newer first"])
def test_an_older_answer_graded_after_a_newer_one_was_stored_leaves_the_row_as_a_rebuild(
        course, alice, held_grading, first, second, order) -> None:
    part = Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")
    a = services.submission_create(student=alice, course=course, part=part,
                                   raw_answer=_answer(first, alice, course, part))
    b = services.submission_create(student=alice, course=course, part=part,
                                   raw_answer=_answer(second, alice, course, part))
    assert [a.outcome, b.outcome] == ["pending", "pending"]  # both stored, neither graded
    _equal_to_a_rebuild(course, totals=False)
    grade_a, grade_b = held_grading
    for step in ([grade_a, grade_b] if order == "older first" else [grade_b, grade_a]):
        step()
        _equal_to_a_rebuild(course)
    outcomes = dict(Submission.objects.filter(pk__in=[a.pk, b.pk]).values_list("pk", "outcome"))
    assert "pending" not in outcomes.values()
