"""The gradebook selector (grading/gradebook.py): times, overrides, incremental sync, CSV."""

from datetime import timedelta

import pytest
from django.utils import timezone

from courses.models import Part
from grading.gradebook import CellState, gradebook, gradebook_csv_lines
from grading.models import Submission
from grading.overrides import grade_override_create
from tests.factories import progress_sync


@pytest.fixture
def parts(module_05):
    return (Part.objects.get(exercise__slug="apply-1-gradient-bound"),
            Part.objects.get(exercise__slug="apply-2-sequential-steps", key="rnn_steps"))


def _answer(student, course, part, when, outcome="incorrect", score=0.0):
    submission = Submission.objects.create(
        student=student, course=course, part=part, raw_answer="1", outcome=outcome,
        score=score, counts_as_attempt=outcome != "invalid", graded_at=when)
    Submission.objects.filter(pk=submission.pk).update(created_at=when)
    progress_sync(course)
    return submission


def test_last_activity_is_the_time_of_the_latest_answer(course, alice, parts):
    bound, steps = parts
    now = timezone.now()
    first, whole_second, latest = (now - timedelta(days=2, microseconds=500_000),
                                   (now - timedelta(days=1)).replace(microsecond=0),
                                   now - timedelta(hours=1, seconds=3))
    _answer(alice, course, bound, first)
    _answer(alice, course, steps, whole_second)
    _answer(alice, course, bound, latest)
    row = gradebook(course=course, student=alice).rows[0]
    assert row.cells[bound.pk].last_activity == latest
    assert row.cells[steps.pk].last_activity == whole_second
    assert row.last_activity == latest


def test_cell_states(course, alice, bob, parts):
    bound, steps = parts
    now = timezone.now()
    _answer(alice, course, bound, now, outcome="correct", score=1.0)
    _answer(alice, course, steps, now, outcome="invalid", score=None)
    _answer(bob, course, bound, now, outcome="review", score=None)
    rows = {r.username: r for r in gradebook(course=course).rows}
    assert rows["alice"].cells[bound.pk].state == CellState.CORRECT
    assert rows["alice"].cells[steps.pk].state == CellState.IN_PROGRESS  # only unreadable
    assert rows["bob"].cells[bound.pk].state == CellState.REVIEW
    assert steps.pk not in rows["bob"].cells


def test_updated_since_includes_students_whose_grade_was_overridden(
    course, alice, bob, irene, parts
):
    bound, _ = parts
    long_ago = timezone.now() - timedelta(days=30)
    _answer(alice, course, bound, long_ago)
    _answer(bob, course, bound, long_ago)
    since = timezone.now() - timedelta(minutes=1)
    assert gradebook(course=course, updated_since=since).rows == []
    grade_override_create(course=course, student_id=bob.pk, part_id=bound.pk, points=1,
                          reason="accepted 0.0015", by=irene)
    rows = gradebook(course=course, updated_since=since).rows
    assert [r.username for r in rows] == ["bob"]
    assert rows[0].cells[bound.pk].best_score == 1.0


def test_gradebook_csv_lines_quote_formula_like_cells(course, alice, parts):
    alice.first_name, alice.last_name = "+cmd", "|calc"
    alice.save()
    lines = list(gradebook_csv_lines(gradebook(course=course)))
    assert lines[1][:2] == ["alice", "'+cmd |calc"]
    assert lines[0][-2:] == ["total", "out_of"]


def test_the_gradebook_makes_three_queries(course, alice, bob, parts, django_assert_num_queries):
    bound, _ = parts
    _answer(alice, course, bound, timezone.now())
    gradebook(course=course)  # the content cache warm (the course's assessments: none)
    with django_assert_num_queries(3):
        gradebook(course=course)


@pytest.mark.parametrize("in_list_limit", [1, 500])
def test_the_rows_keep_only_their_own_students_cells_whatever_their_number(
    course, alice, bob, parts, monkeypatch, in_list_limit
):
    """Above IN_LIST_LIMIT students the cells are read for the whole course: the students the
    rows leave out must not appear, and each row keeps exactly its own cells."""
    from grading import gradebook as book_module
    from grading.gradebook import ROW_COLUMNS, gradebook_rows, gradebook_students

    monkeypatch.setattr(book_module, "IN_LIST_LIMIT", in_list_limit)
    bound, steps = parts
    _answer(alice, course, bound, timezone.now())
    _answer(bob, course, steps, timezone.now())
    _answer(bob, course, bound, timezone.now())
    students = list(gradebook_students(course=course).values_list(*ROW_COLUMNS))
    both = {r.username: set(r.cells) for r in gradebook_rows(course=course, students=students)}
    assert both == {"alice": {bound.pk}, "bob": {bound.pk, steps.pk}}
    bob_only = [s for s in students if s[1] == "bob"] * 2  # the same student twice: one row
    rows = gradebook_rows(course=course, students=bob_only, part_ids=[steps.pk])
    assert [(r.username, set(r.cells)) for r in rows] == [("bob", {steps.pk})]
