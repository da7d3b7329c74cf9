"""The submission path costs the same whatever the history, and concurrent answers of one
student to one part cannot exceed the attempt limit."""

import threading

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from courses.models import Exercise, Part
from grading.models import PartProgress, Submission
from grading.services import SubmissionRefused, submission_create
from tests.factories import progress_sync


@pytest.fixture
def bound(module_05) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")


def _history(student, course, part, count: int) -> None:
    """`count` earlier wrong answers, each different (written in bulk, rows rebuilt)."""
    Submission.objects.bulk_create([
        Submission(student=student, course=course, part=part, raw_answer=f"0.{i + 1:04d}",
                   canonical=f"0.{i + 1:04d}", outcome=Submission.Outcome.INCORRECT, score=0.0,
                   counts_as_attempt=True, answer_key=f"key-{i}", graded_at=timezone.now())
        for i in range(count)])
    progress_sync(course)


def _queries_to_submit(student, course, part, answer: str) -> int:
    part = Part.objects.select_related("exercise").get(pk=part.pk)
    with CaptureQueriesContext(connection) as queries:
        submission_create(student=student, course=course, part=part, raw_answer=answer)
    return len(queries)


@pytest.mark.django_db
def test_submitting_costs_the_same_queries_after_1_or_200_earlier_attempts(
        course, alice, bob, bound) -> None:
    Exercise.objects.filter(pk=bound.exercise_id).update(max_attempts=0)  # unlimited
    _history(alice, course, bound, 1)
    _history(bob, course, bound, 200)
    for student in (alice, bob):  # the caches warm (content, variants), as in a rush
        _queries_to_submit(student, course, bound, "0.7")
    few = _queries_to_submit(alice, course, bound, "0.5")
    many = _queries_to_submit(bob, course, bound, "0.5")
    assert few == many
    assert PartProgress.objects.get(student=bob, part=bound).attempts == 202


@pytest.mark.django_db
def test_a_repeated_answer_is_found_by_its_key_among_many(course, alice, bound) -> None:
    Exercise.objects.filter(pk=bound.exercise_id).update(max_attempts=0)
    bound = Part.objects.select_related("exercise").get(pk=bound.pk)
    _history(alice, course, bound, 50)
    first = submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    again = submission_create(student=alice, course=course, part=bound, raw_answer="1/2")
    assert first.counts_as_attempt and not again.counts_as_attempt
    assert PartProgress.objects.get(student=alice, part=bound).attempts == 51


@pytest.mark.django_db(transaction=True)
def test_concurrent_answers_of_one_student_never_exceed_the_attempt_limit(
        course, alice, bound) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's (SQLite serialises every writer)")
    limit = bound.exercise.max_attempts
    _history(alice, course, bound, limit - 2)  # two attempts left
    barrier = threading.Barrier(6)
    outcomes: list[str] = []

    def submit(i: int) -> None:
        try:
            barrier.wait()
            submission_create(student=alice, course=course, part=bound,
                              raw_answer=f"0.{i + 7}1")
            outcomes.append("stored")
        except SubmissionRefused:
            outcomes.append("refused")
        except Exception as error:  # reported by the assertion below
            outcomes.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused"] * 4 + ["stored"] * 2
    used = Submission.objects.filter(student=alice, part=bound, counts_as_attempt=True).count()
    assert used == limit
    assert PartProgress.objects.get(student=alice, part=bound).attempts == limit
