"""The module page's read of a student's deadlines in a course, written as SQL by hand.

Built with the ORM (the exercises with six subqueries for their due dates, the student's
extension and the course's policy), the read cost about 5 ms of Python to compile on every
module page, for well under 1 ms of database work. This is the same read as one plain
statement: the exercises that have a deadline in the course (their own, or their module's
default due date there), each joined to its own deadline, its module's due date in the
course, the student's extension and the course's policy. Every join is on a unique key, so
there is one row per exercise. tests/grading/test_deadline_statement.py checks it against
the ORM query it replaced, on SQLite and PostgreSQL.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import cast

from django.db import connection

from core.sql_rows import ModelColumns, instances, value_from_db
from courses.models import CourseModule, Exercise
from grading.models import Deadline, DeadlineExtension, DeadlinePolicy

_POLICY = ModelColumns(DeadlinePolicy, "p")
# Only the models' own table and column names are put into the statement; every value is a
# parameter.
_SQL = (
    f"SELECT {_POLICY.select}, x.id, d.due_at, cm.due_at, e.due_at, e.reason "  # noqa: S608
    f"FROM {Exercise._meta.db_table} x "
    f"LEFT JOIN {Deadline._meta.db_table} d ON d.course_id = %s AND d.exercise_id = x.id "
    f"LEFT JOIN {CourseModule._meta.db_table} cm "
    f"ON cm.course_id = %s AND cm.module_id = x.module_id "
    f"LEFT JOIN {DeadlineExtension._meta.db_table} e "
    f"ON e.course_id = %s AND e.exercise_id = x.id AND e.student_id = %s "
    f"LEFT JOIN {DeadlinePolicy._meta.db_table} p ON p.course_id = %s "
    f"WHERE x.module_id IN (SELECT m.module_id FROM {CourseModule._meta.db_table} m "
    f"WHERE m.course_id = %s AND m.due_at IS NOT NULL) "
    f"OR x.id IN (SELECT o.exercise_id FROM {Deadline._meta.db_table} o WHERE o.course_id = %s)"
)


@dataclass(frozen=True)
class ExerciseDeadlineRow:
    """One exercise's dates in the course; `policy` is None when the course has no policy."""

    exercise_id: int
    own_due: datetime | None
    module_due: datetime | None
    extension_due: datetime | None
    extension_reason: str | None
    policy: DeadlinePolicy | None


def exercise_deadline_rows(*, course_id: int, student_id: int) -> list[ExerciseDeadlineRow]:
    """Every exercise with a deadline in course `course_id` (its own, or its module's default
    due date in the course), with the student's extension and the course's policy (the ORM's
    instance), in no particular order. One statement."""
    with connection.cursor() as cursor:
        cursor.execute(_SQL, [course_id, course_id, course_id, student_id, course_id,
                              course_id, course_id])
        found = cursor.fetchall()
    rows = []
    for row in found:
        (policy,), (exercise_id, own, module_due, extension_due, reason) = instances(
            row, [_POLICY])
        rows.append(ExerciseDeadlineRow(
            exercise_id=exercise_id,
            own_due=value_from_db(own, Deadline, "due_at"),
            module_due=value_from_db(module_due, CourseModule, "due_at"),
            extension_due=value_from_db(extension_due, DeadlineExtension, "due_at"),
            extension_reason=reason, policy=cast(DeadlinePolicy | None, policy),
        ))
    return rows
