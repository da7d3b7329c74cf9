"""Every way an attempt can be closed at once, on PostgreSQL's row locks: two sweeps (two
beats, or two workers taking the same sweep), a student's submit and a page loaded after
the deadline, all on their own connections and released together. Each attempt must be
closed and graded exactly once (`attempt_close` locks the attempt's row with
`select_for_update` and does nothing to one already closed)."""

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from exams.models import Attempt, AuditEntry
from exams.services import attempt_close, attempts_expired_close, drafts_save
from tests.exams.faults import assert_closed_once, started, students_enrolled
from tests.exams.test_attempts import right_answers

pytestmark = pytest.mark.django_db(transaction=True)

STUDENTS = 12


@pytest.fixture
def postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks of concurrent connections need PostgreSQL")


def _expired(quiz) -> list[Attempt]:
    attempts = []
    for user in students_enrolled(quiz, STUDENTS, "racing"):
        attempt = started(quiz, user)
        drafts_save(attempt_id=attempt.pk, student=user, drafts=right_answers(attempt))
        attempts.append(attempt)
    Attempt.objects.filter(pk__in=[a.pk for a in attempts]).update(
        deadline_at=timezone.now() - timedelta(seconds=1))
    return attempts


def _together(calls: list[Callable[[], object]]) -> list[object]:
    """Run the calls in threads released at the same moment; their results (or errors)."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # reported below, not lost in the thread
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads)
    assert not [r for r in results if isinstance(r, Exception)], results
    return results


def test_two_sweeps_racing_students_who_submit_close_each_expired_attempt_once(
        postgresql, quiz_course):
    attempts = _expired(quiz_course)

    def submits() -> int:  # the students press Submit, last first, as the sweeps run
        return sum(attempt_close(attempt_id=a.pk, by=Attempt.ClosedBy.STUDENT,
                                 actor=a.student).closed_by == Attempt.ClosedBy.STUDENT
                   for a in reversed(attempts))

    def page_loads() -> int:  # pages loaded after the deadline close it too
        return sum(attempt_close(attempt_id=a.pk, by=Attempt.ClosedBy.DEADLINE) is not None
                   for a in attempts[::2])

    results = _together([attempts_expired_close, attempts_expired_close, submits, page_loads])
    swept_one, swept_two, submitted = (int(r) for r in results[:3])
    assert_closed_once(attempts)
    by_student = Attempt.objects.filter(pk__in=[a.pk for a in attempts],
                                        closed_by=Attempt.ClosedBy.STUDENT).count()
    assert submitted == by_student
    assert swept_one + swept_two + by_student <= STUDENTS  # the rest: the late page loads
    assert AuditEntry.objects.filter(action__in=["close", "submit"]).count() == STUDENTS
    assert all(a.score == pytest.approx(1.0) for a in attempts)
    assert attempts_expired_close() == 0


def test_many_sweeps_at_once_close_each_attempt_once_and_count_it_once(postgresql, quiz_course):
    attempts = _expired(quiz_course)
    counts = _together([attempts_expired_close for _ in range(4)])
    assert sum(counts) == STUDENTS  # each attempt counted by the one sweep that closed it
    assert_closed_once(attempts, Attempt.ClosedBy.DEADLINE)
