"""The locking reads of a (student, part) progress row, each with what its caller asks
alongside, as compiled ORM queries (`core.compiled_query`): the answer path runs them on
every answer, so they are built and compiled once per process and database.

`FOR UPDATE OF` the progress row where the database has it (SQLite locks the whole database
for a write transaction anyway). The row is created first when missing.
"""

from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Exists, QuerySet, Subquery

from core.compiled_query import CompiledQuery
from grading.models import PartProgress, Submission


def _row(course_id: int, student_id: int, part_id: int) -> QuerySet[PartProgress]:
    rows = PartProgress.objects.filter(course_id=course_id, student_id=student_id,
                                       part_id=part_id)
    if connection.features.has_select_for_update:
        of = ("self",) if connection.features.has_select_for_update_of else ()
        rows = rows.select_for_update(of=of)
    return rows


def _resent(course_id: int, student_id: int, part_id: int, raw_answer: str,
            since: datetime) -> QuerySet[PartProgress]:
    latest = Submission.objects.filter(course_id=course_id, student_id=student_id,
                                       part_id=part_id).order_by("-id").values("id")[:1]
    resent = Submission.objects.filter(pk=Subquery(latest), raw_answer=raw_answer,
                                       created_at__gte=since).values("id")[:1]
    return _row(course_id, student_id, part_id).annotate(resent=Subquery(resent))


def _repeated(course_id: int, student_id: int, part_id: int, answer_key: str,
              submission_id: int) -> QuerySet[PartProgress]:
    same = (Submission.objects.filter(course_id=course_id, student_id=student_id,
                                      part_id=part_id, counts_as_attempt=True,
                                      answer_key=answer_key).exclude(pk=submission_id))
    return _row(course_id, student_id, part_id).annotate(repeated=Exists(same))


def _later(course_id: int, student_id: int, part_id: int,
           submission_id: int) -> QuerySet[PartProgress]:
    later = Submission.objects.filter(course_id=course_id, student_id=student_id,
                                      part_id=part_id, pk__gt=submission_id)
    return _row(course_id, student_id, part_id).annotate(later=Exists(later))


_KEY = {"course_id": int, "student_id": int, "part_id": int}
_LOCK = CompiledQuery(_row, **_KEY)
_RESENT = CompiledQuery(_resent, **_KEY, raw_answer=str, since=datetime)
_REPEATED = CompiledQuery(_repeated, **_KEY, answer_key=str, submission_id=int)
_LATER = CompiledQuery(_later, **_KEY, submission_id=int)


def _locked(query: CompiledQuery[PartProgress], **values: Any) -> PartProgress:
    """The row read by `query`, locked until the transaction ends; created first if missing
    (then read again)."""
    found = query.first(**values)
    if found is None:
        # Created without a savepoint; a concurrent creator's row is then the one locked.
        PartProgress.objects.bulk_create(
            [PartProgress(course_id=values["course_id"], student_id=values["student_id"],
                          part_id=values["part_id"])], ignore_conflicts=True)
        found = query.first(**values)
    if found is None:
        raise PartProgress.DoesNotExist("The progress row could not be created.")
    return found


def progress_locked(*, course_id: int, student_id: int, part_id: int) -> PartProgress:
    """The (student, part) progress row, created if missing, locked until the transaction
    ends, so concurrent writers of one student's part go one after the other (recovery,
    regrades, reviews; the answer path's locks below also ask something alongside). One
    statement when the row exists, three when it is created."""
    return _locked(_LOCK, course_id=course_id, student_id=student_id, part_id=part_id)


def progress_locked_for_answer(*, course_id: int, student_id: int, part_id: int,
                               raw_answer: str, since: datetime) -> PartProgress:
    """The progress row, locked (as `progress_locked`), with `resent`: the id of the
    student's latest answer to the part if it was stored at `since` or later and is exactly
    `raw_answer` (a retry of the same text), else None. One statement when the row exists."""
    return _locked(_RESENT, course_id=course_id, student_id=student_id, part_id=part_id,
                   raw_answer=raw_answer, since=since)


def progress_locked_for_verdict(*, course_id: int, student_id: int, part_id: int,
                                answer_key: str, submission_id: int) -> PartProgress:
    """The progress row, locked, with `repeated`: whether another of the student's answers
    to the part that counted as an attempt has `answer_key`. One statement when the row
    exists."""
    return _locked(_REPEATED, course_id=course_id, student_id=student_id, part_id=part_id,
                   answer_key=answer_key, submission_id=submission_id)


def progress_locked_with_later(*, course_id: int, student_id: int, part_id: int,
                               submission_id: int) -> PartProgress:
    """The progress row, locked (as `progress_locked`), with `later`: whether the student
    stored another answer to the part after submission `submission_id` (the verdict
    writer's test of a verdict it may apply by difference). One statement when the row
    exists."""
    return _locked(_LATER, course_id=course_id, student_id=student_id, part_id=part_id,
                   submission_id=submission_id)
