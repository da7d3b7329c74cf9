"""The progress row's locking reads find the row (creating it) and say what their callers ask
alongside, on SQLite and PostgreSQL alike (both CI passes run this file)."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from courses.models import Part
from grading.models import PartProgress, Submission
from grading.progress_locks import (
    progress_locked_for_answer,
    progress_locked_for_verdict,
    progress_locked_with_later,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def steps(module_05) -> Part:
    """Apply 2's first part (its exercise has a later part)."""
    return Part.objects.select_related("exercise").get(
        exercise__slug="apply-2-sequential-steps", key="rnn_steps")


def _answer(student, course, part, text: str, *, counts: bool = False, key: str = "",
            ago: timedelta = timedelta(0)) -> Submission:
    submission = Submission.objects.create(student=student, course=course, part=part,
                                           raw_answer=text, counts_as_attempt=counts,
                                           answer_key=key)
    if ago:
        Submission.objects.filter(pk=submission.pk).update(
            created_at=timezone.now() - ago)
    return submission


def _resent(student, course, part, text: str, window: timedelta = timedelta(seconds=60)):
    with transaction.atomic():
        return progress_locked_for_answer(course_id=course.pk, student_id=student.pk,
                                          part_id=part.pk, raw_answer=text,
                                          since=timezone.now() - window).resent  # type: ignore[attr-defined]


def test_the_locked_row_is_created_when_missing_and_is_the_stored_row(alice, course, steps):
    with transaction.atomic():
        row = progress_locked_for_answer(course_id=course.pk, student_id=alice.pk,
                                         part_id=steps.pk, raw_answer="3", since=timezone.now())
    stored = PartProgress.objects.get(course=course, student=alice, part=steps)
    assert row.pk == stored.pk and row.attempts == 0 and row.wrong_answers == stored.wrong_answers
    assert row.resent is None


def test_resent_is_the_latest_answer_when_it_is_the_same_text_within_the_window(
        alice, bob, course, steps):
    _answer(alice, course, steps, "old", ago=timedelta(minutes=5))
    latest = _answer(alice, course, steps, "12")
    _answer(bob, course, steps, "13")  # another student's later answer changes nothing
    assert _resent(alice, course, steps, "12") == latest.pk
    assert _resent(alice, course, steps, "13") is None  # not the same text
    assert _resent(alice, course, steps, "old", window=timedelta(hours=1)) is None  # not latest


def test_an_answer_older_than_the_window_is_not_resent(alice, course, steps):
    _answer(alice, course, steps, "12", ago=timedelta(minutes=5))
    assert _resent(alice, course, steps, "12") is None
    assert _resent(alice, course, steps, "12", window=timedelta(minutes=10)) is not None


def _verdict_row(student, course, part, key: str, submission: Submission) -> PartProgress:
    with transaction.atomic():
        return progress_locked_for_verdict(course_id=course.pk, student_id=student.pk,
                                           part_id=part.pk, answer_key=key,
                                           submission_id=submission.pk)


def test_repeated_means_another_counted_answer_with_the_same_key(alice, bob, course, steps):
    now = _answer(alice, course, steps, "12", counts=True, key="k12")
    assert not _verdict_row(alice, course, steps, "k12", now).repeated  # itself only
    _answer(alice, course, steps, "twelve", counts=False, key="k12")  # did not count
    _answer(bob, course, steps, "12", counts=True, key="k12")  # another student's
    assert not _verdict_row(alice, course, steps, "k12", now).repeated
    _answer(alice, course, steps, "12.0", counts=True, key="k12")
    assert _verdict_row(alice, course, steps, "k12", now).repeated
    assert not _verdict_row(alice, course, steps, "other", now).repeated


def test_later_means_another_answer_of_the_student_to_the_part_after_the_one_named(
        alice, bob, course, steps):
    def later(submission: Submission) -> bool:
        with transaction.atomic():
            return progress_locked_with_later(
                course_id=course.pk, student_id=alice.pk, part_id=steps.pk,
                submission_id=submission.pk).later  # type: ignore[attr-defined]

    earlier = _answer(alice, course, steps, "3")
    prediction = _answer(alice, course, steps, "4")
    assert not later(prediction)  # an earlier answer is not a later one
    _answer(bob, course, steps, "5")  # another student's
    other_part = Part.objects.get(exercise=steps.exercise, key="attention_steps")
    _answer(alice, course, other_part, "6")  # another part's
    assert not later(prediction)
    assert later(earlier)
    _answer(alice, course, steps, "7")
    assert later(prediction)


@pytest.mark.django_db(transaction=True)
def test_a_prepared_locking_read_survives_a_migration_that_adds_a_column(alice, course, steps):
    """Prepared statements (PostgreSQL, after 5 runs on a connection) that select `*` fail
    once another process adds a column, until the connection is renewed; the locking reads
    name their columns, so a web process keeps answering while a deploy migrates."""
    import psycopg
    from django.db import DatabaseError, connection

    if connection.vendor != "postgresql" or \
            not connection.settings_dict["OPTIONS"].get("server_side_binding"):
        pytest.skip("prepared statements are PostgreSQL's (CI runs this there)")
    table = PartProgress._meta.db_table
    star = f"SELECT * FROM {table} WHERE student_id = %s"  # noqa: S608
    with connection.cursor() as cursor:
        for _ in range(7):
            _resent(alice, course, steps, "1")
            cursor.execute(star, [alice.pk])
    params = connection.get_connection_params()
    dsn = {k: params[k] for k in ("dbname", "user", "host", "port", "password") if params.get(k)}
    with psycopg.connect(**dsn, autocommit=True) as other:  # the migration, elsewhere
        other.execute(f"ALTER TABLE {table} ADD COLUMN note_added text")
    try:
        assert _resent(alice, course, steps, "1") is None  # still reads
        with pytest.raises(DatabaseError, match="cached plan must not change result type"), \
                connection.cursor() as cursor:
            cursor.execute(star, [alice.pk])
    finally:
        with psycopg.connect(**dsn, autocommit=True) as other:
            other.execute(f"ALTER TABLE {table} DROP COLUMN note_added")
