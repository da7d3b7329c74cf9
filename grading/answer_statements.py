"""The answer path's hottest statements, written as SQL by hand.

An answer runs about fifteen statements. Built with the ORM, each cost 1 to 5 ms of Python
(building the filters, compiling nested subqueries, choosing the columns) for well under
1 ms of database work; a deadline rush is bound by that Python (docs/scaling.md, "Where an
answer's time goes"). The statements here are the ones whose compilation cost the most: the
locking reads of the progress row with what they ask alongside, the exercise's place in
the course, and the student's course totals moved by difference. Each does exactly what the
ORM query it replaces did; tests/grading/test_answer_statements.py checks them against the
ORM on SQLite and PostgreSQL.

Portable SQL for SQLite and PostgreSQL: `FOR UPDATE` is added only where the database has
it (SQLite locks the whole database for a write transaction anyway), and the one read of a
JSON key is spelled per database.
"""

from datetime import datetime
from typing import Any, cast

from django.db import connection

from core.sql_rows import ModelColumns, value_from_db
from courses.models import CourseModule, Part
from grading.models import Deadline, PartProgress, StudentProgress, Submission

_PROGRESS = PartProgress._meta.db_table
_SUBMISSION = Submission._meta.db_table
_PART = Part._meta.db_table
_COURSE_MODULE = CourseModule._meta.db_table
_DEADLINE = Deadline._meta.db_table
_TOTALS = StudentProgress._meta.db_table

#: A later part's key that may use earlier answers (grading.carried_answers.carrying_parts).
_CARRIES = {
    "postgresql": "UPPER((p.spec ->> 'reference')::text) LIKE UPPER(%s)",
    "sqlite": "JSON_EXTRACT(p.spec, '$.\"reference\"') LIKE %s ESCAPE '\\'",
}
_ANSWER_CALL = "%answer(%"


def _locking() -> str:
    return " FOR UPDATE OF pp" if connection.features.has_select_for_update_of else ""


# Only the models' own table names are put into the statements; every value is a parameter.
# The progress row's columns by name, not `pp.*`: a prepared `*` fails once a migration adds
# a column ("cached plan must not change result type") until the connection is renewed.
_COLUMNS = ModelColumns(PartProgress, "pp")
_ROW = _COLUMNS.select

_LOCK_SQL = (f"SELECT {_ROW} FROM {_PROGRESS} pp "  # noqa: S608
             "WHERE pp.course_id = %s AND pp.student_id = %s AND pp.part_id = %s")
_RESENT_SQL = (
    f"SELECT {_ROW}, (SELECT s.id FROM {_SUBMISSION} s WHERE s.raw_answer = %s AND s.id = "  # noqa: S608
    f"(SELECT u.id FROM {_SUBMISSION} u WHERE u.course_id = %s AND u.student_id = %s "
    f"AND u.part_id = %s AND u.created_at >= %s ORDER BY u.id DESC LIMIT 1)) AS resent "
    f"FROM {_PROGRESS} pp WHERE pp.course_id = %s AND pp.student_id = %s AND pp.part_id = %s"
)
_VERDICT_SQL = (
    f"SELECT {_ROW}, EXISTS(SELECT 1 FROM {_SUBMISSION} s WHERE s.course_id = %s "  # noqa: S608
    f"AND s.student_id = %s AND s.part_id = %s AND s.counts_as_attempt "
    f"AND s.answer_key = %s AND s.id <> %s) AS repeated, "
    f"EXISTS(SELECT 1 FROM {_PART} p WHERE p.exercise_id = %s AND p.archived_at IS NULL "
    f'AND p."order" > %s AND {{carries}}) AS carried '
    f"FROM {_PROGRESS} pp WHERE pp.course_id = %s AND pp.student_id = %s AND pp.part_id = %s"
)
_LATER_SQL = (
    f"SELECT {_ROW}, EXISTS(SELECT 1 FROM {_SUBMISSION} s WHERE s.course_id = %s "  # noqa: S608
    f"AND s.student_id = %s AND s.part_id = %s AND s.id > %s) AS later "
    f"FROM {_PROGRESS} pp WHERE pp.course_id = %s AND pp.student_id = %s AND pp.part_id = %s"
)
_DATES_SQL = (
    f"SELECT cm.release_at, cm.due_at, (SELECT d.due_at FROM {_DEADLINE} d "  # noqa: S608
    f"WHERE d.course_id = %s AND d.exercise_id = %s LIMIT 1) "
    f"FROM {_COURSE_MODULE} cm WHERE cm.course_id = %s AND cm.module_id = %s "
    f'ORDER BY cm."order", cm.id LIMIT 1'
)
_TOTALS_SQL = (
    f"UPDATE {_TOTALS} SET total = total + %s, parts_solved = parts_solved + %s, "  # noqa: S608
    f"attempts = attempts + %s, awaiting_review = awaiting_review + %s, "
    f"last_activity = CASE WHEN last_activity IS NULL OR last_activity < %s THEN %s "
    f"ELSE last_activity END, "
    f"changed_at = CASE WHEN changed_at IS NULL OR changed_at < %s THEN %s "
    f"ELSE changed_at END "
    f"WHERE course_id = %s AND student_id = %s"
)


def _row_locked(sql: str, params: list[Any], *, course_id: int, student_id: int,
                part_id: int) -> PartProgress:
    """The (student, part) progress row read by `sql` (which selects its columns, then more
    columns, each set on the row as an attribute of its name) and locked until the
    transaction ends; created first if missing (then read again)."""
    found = _row_read(sql, params)
    if found is None:
        # Created without a savepoint; a concurrent creator's row is then the one locked.
        PartProgress.objects.bulk_create(
            [PartProgress(course_id=course_id, student_id=student_id, part_id=part_id)],
            ignore_conflicts=True)
        found = _row_read(sql, params)
    if found is None:
        raise PartProgress.DoesNotExist("The progress row could not be created.")
    return found


def _row_read(sql: str, params: list[Any]) -> PartProgress | None:
    # A plain cursor, not QuerySet.raw(): the row's columns come first, in the model's order.
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
        names = [column[0] for column in cursor.description or ()]
    if row is None:
        return None
    progress = cast(PartProgress, _COLUMNS.instance(row[:_COLUMNS.width]))
    for name, value in zip(names[_COLUMNS.width:], row[_COLUMNS.width:], strict=True):
        setattr(progress, name, value)
    return progress


def progress_locked(*, course_id: int, student_id: int, part_id: int) -> PartProgress:
    """The (student, part) progress row, created if missing, locked until the transaction
    ends, so concurrent writers of one student's part go one after the other (recovery,
    regrades, reviews; the answer path's two locks below also ask something alongside). One
    statement when the row exists, three when it is created."""
    return _row_locked(_LOCK_SQL + _locking(), [course_id, student_id, part_id],
                       course_id=course_id, student_id=student_id, part_id=part_id)


def progress_locked_for_answer(*, course_id: int, student_id: int, part_id: int,
                               raw_answer: str, since: datetime) -> PartProgress:
    """The progress row, locked (as `progress_locked`), with `resent`:
    the id of the student's latest answer to the part if it was stored at `since` or later
    and is exactly `raw_answer` (a retry of the same text), else None. One statement when
    the row exists."""
    sql = _RESENT_SQL + _locking()
    params = [raw_answer, course_id, student_id, part_id,
              connection.ops.adapt_datetimefield_value(since), course_id, student_id, part_id]
    return _row_locked(sql, params, course_id=course_id, student_id=student_id, part_id=part_id)


def progress_locked_for_verdict(*, course_id: int, student_id: int, part: Part,
                                answer_key: str, submission_id: int) -> PartProgress:
    """The progress row, locked, with `repeated`: whether another of the student's answers to
    the part that counted as an attempt has `answer_key`; and `carried`: whether a later
    active part of the exercise may use earlier answers in its key
    (`grading.carried_answers.carrying_parts`). One statement when the row exists."""
    sql = _VERDICT_SQL.format(carries=_CARRIES[connection.vendor]) + _locking()
    params = [course_id, student_id, part.pk, answer_key, submission_id, part.exercise_id,
              part.order, _ANSWER_CALL, course_id, student_id, part.pk]
    return _row_locked(sql, params, course_id=course_id, student_id=student_id,
                       part_id=part.pk)


def progress_locked_for_lab_verdict(*, course_id: int, student_id: int, part_id: int,
                                    submission_id: int) -> PartProgress:
    """The progress row, locked (as `progress_locked`), with `later`: whether the student
    stored another answer to the part after submission `submission_id` (a prediction about
    to be graded from its lab run). One statement when the row exists."""
    params = [course_id, student_id, part_id, submission_id, course_id, student_id, part_id]
    return _row_locked(_LATER_SQL + _locking(), params, course_id=course_id,
                       student_id=student_id, part_id=part_id)


#: An exercise's dates in a course: its module's release date, the module's default due date
#: and the exercise's own deadline, each None when unset.
ExerciseDates = tuple[datetime | None, datetime | None, datetime | None]


def exercise_dates(*, course_id: int, module_id: int, exercise_id: int,
                   ) -> ExerciseDates | None:
    """The exercise's place in the course: (the module's release date, the module's default
    due date, the exercise's own deadline), each None when unset; None when the course does
    not run the exercise's module. One statement."""
    with connection.cursor() as cursor:
        cursor.execute(_DATES_SQL, [course_id, exercise_id, course_id, module_id])
        found = cursor.fetchone()
    if found is None:
        return None
    release_at, due_at, own_due = found
    return (value_from_db(release_at, CourseModule, "release_at"),
            value_from_db(due_at, CourseModule, "due_at"),
            value_from_db(own_due, Deadline, "due_at"))


def course_totals_moved(*, course_id: int, student_id: int, total: float, solved: int,
                        attempts: int, awaiting_review: int, last_activity: datetime | None,
                        changed_at: datetime | None) -> bool:
    """Move the student's course totals by difference (`total`, `solved`, `attempts`,
    `awaiting_review` added) and their latest activity and change times forward to the
    given ones if later. False when the student has no totals row yet. One statement."""
    adapt = connection.ops.adapt_datetimefield_value
    latest, changed = adapt(last_activity), adapt(changed_at)
    with connection.cursor() as cursor:
        cursor.execute(_TOTALS_SQL, [total, solved, attempts, awaiting_review, latest, latest,
                             changed, changed, course_id, student_id])
        return cursor.rowcount > 0
