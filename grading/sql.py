"""The SQL grading keeps written by hand: statements the ORM cannot make, or not as cheap.

- `course_totals_moved` moves a student's course totals by difference on every graded
  answer, with "later of" for two times; the ORM's `update()` with `F()` and `Case`
  compiles for about 2 ms a call.
- `wrong_answer_sums_upsert` adds differences to the class's wrong-answer sums: an upsert
  (`INSERT ... ON CONFLICT DO UPDATE` adding to the row), which the ORM cannot say.

Table and column names come from the models (`_meta`), so a renamed column needs no edit
here; every value is a named parameter. tests/grading/test_sql.py runs each statement on
SQLite and PostgreSQL.
"""

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import connection

from core.sql import column, table
from grading.models import StudentProgress, WrongAnswerCount


@functools.cache
def _totals_sql(vendor: str) -> str:
    field = {name: column(StudentProgress, name) for name in (
        "total", "parts_solved", "attempts", "awaiting_review", "last_activity", "changed_at",
        "course", "student")}

    def later(name: str, param: str) -> str:
        column = field[name]
        return (f"{column} = CASE WHEN {column} IS NULL OR {column} < %({param})s "
                f"THEN %({param})s ELSE {column} END")

    # Only the model's own table and column names are put into the statement.
    return (f"UPDATE {table(StudentProgress)} SET "  # noqa: S608
            f"{field['total']} = {field['total']} + %(total)s, "
            f"{field['parts_solved']} = {field['parts_solved']} + %(solved)s, "
            f"{field['attempts']} = {field['attempts']} + %(attempts)s, "
            f"{field['awaiting_review']} = {field['awaiting_review']} + %(awaiting_review)s, "
            f"{later('last_activity', 'last_activity')}, {later('changed_at', 'changed_at')} "
            f"WHERE {field['course']} = %(course_id)s AND {field['student']} = %(student_id)s")


def course_totals_moved(*, course_id: int, student_id: int, total: float, solved: int,
                        attempts: int, awaiting_review: int, last_activity: datetime | None,
                        changed_at: datetime | None) -> bool:
    """Move the student's course totals by difference (`total`, `solved`, `attempts`,
    `awaiting_review` added) and their latest activity and change times forward to the
    given ones if later. False when the student has no totals row yet. One statement."""
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(_totals_sql(connection.vendor), {
            "total": total, "solved": solved, "attempts": attempts,
            "awaiting_review": awaiting_review, "last_activity": adapt(last_activity),
            "changed_at": adapt(changed_at), "course_id": course_id, "student_id": student_id})
        return cursor.rowcount > 0


#: The columns of a wrong-answer sum's row, in the order `wrong_answer_sums_upsert` takes.
SUM_FIELDS = ("course", "part", "digest", "misconception", "canonical", "answers", "students")


def wrong_answer_sums_upsert(changes: Sequence[Sequence[Any]]) -> None:
    """Add each of `changes` ((course id, part id, digest, misconception, canonical,
    answers, students), differences of the two counts) to the sums: a new row for a new
    (course, part, digest), else its counts moved and its texts kept. One statement."""
    if not changes:
        return
    sums = table(WrongAnswerCount)
    field = {name: column(WrongAnswerCount, name) for name in SUM_FIELDS}
    rows = ", ".join("(" + ", ".join(f"%({name}_{i})s" for name in SUM_FIELDS) + ")"
                     for i in range(len(changes)))
    answers, students = field["answers"], field["students"]
    # Only the model's own table and column names are put into the statement.
    sql = (f"INSERT INTO {sums} ({', '.join(field.values())}) VALUES {rows} "  # noqa: S608
           f"ON CONFLICT ({field['course']}, {field['part']}, {field['digest']}) DO UPDATE "
           f"SET {answers} = {sums}.{answers} + excluded.{answers}, "
           f"{students} = {sums}.{students} + excluded.{students}")
    params = {f"{name}_{i}": value for i, change in enumerate(changes)
              for name, value in zip(SUM_FIELDS, change, strict=True)}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
