"""One statement for what every answer, preview and prediction reads first: the user's
active enrolment in the course (with the course and its module), the part asked for (with
its exercise), whether the course runs that part's module, and whether the user has the
module's own numbers in the course (`grading.models.DefaultVariant`), and the part's dates
(its module's release and due dates in the course, the exercise's own deadline).

Through the ORM these were three to four queries costing about 5 ms of Python on every
such request (docs/scaling.md); here they are one hand-written statement whose rows are
cut into the same model instances (`core.sql_rows`). `part_history`, the student's answers
to the part that the answered-in-place fragment lists, is read the same way.
"""

import functools
from dataclasses import dataclass
from typing import cast

from django.db import connection

from core.sql_rows import ModelColumns, row_instances, selects, value_from_db
from courses.models import CourseModule, Enrollment, Exercise, Part
from courses.selectors import ENROLLED_FROM, ENROLLED_LAYOUT, ENROLLED_WHERE, enrollment_joined
from grading.answer_statements import ExerciseDates
from grading.models import Deadline, DefaultVariant, Submission

_LAYOUT = (*ENROLLED_LAYOUT, ModelColumns(Part, "p"), ModelColumns(Exercise, "x"))


@functools.cache
def _statement(vendor: str) -> str:
    """The statement for this database (its quoting of column names). Parameters: the
    part's id, then `ENROLLED_WHERE`'s."""
    # Only the models' own table names are put into the statement; values are parameters.
    return (
        f"SELECT {selects(_LAYOUT)}, "  # noqa: S608
        f"cm.id IS NOT NULL AS in_course, "
        f"EXISTS(SELECT 1 FROM {DefaultVariant._meta.db_table} dv "
        f"WHERE dv.course_id = c.id AND dv.student_id = e.user_id) AS module_numbers, "
        f"cm.release_at, cm.due_at, (SELECT d.due_at FROM {Deadline._meta.db_table} d "
        f"WHERE d.course_id = c.id AND d.exercise_id = x.id LIMIT 1) AS own_due "
        f"{ENROLLED_FROM} "
        f"LEFT JOIN {Part._meta.db_table} p ON p.id = %s AND p.archived_at IS NULL "
        f"LEFT JOIN {Exercise._meta.db_table} x ON x.id = p.exercise_id "
        f"AND x.archived_at IS NULL "
        # at most one row: a course runs a module once (module_once_per_course)
        f"LEFT JOIN {CourseModule._meta.db_table} cm ON cm.course_id = c.id "
        f"AND cm.module_id = x.module_id {ENROLLED_WHERE}"
    )


@dataclass(frozen=True)
class EnrolledPart:
    """What the statement found: the enrolment (None: the user is not an active member of
    the course), the part (None: no such active part in a module the course runs) and
    whether the user has the module's own numbers in the course."""

    enrollment: Enrollment | None
    part: Part | None
    module_numbers: bool
    #: With the part: its module's release and due dates in the course and the exercise's
    #: own deadline, as `grading.answer_statements.exercise_dates` gives them.
    dates: ExerciseDates | None = None


def enrolled_part_get(*, user_id: int, course_slug: str, part_id: int) -> EnrolledPart:
    """The user's active enrolment in the course (its course and module loaded) and the
    active part `part_id` of a module the course runs (its exercise loaded, and its dates in
    the course, which the answer's release and deadline checks need). One query."""
    found = row_instances(_statement(connection.vendor), [part_id, user_id, course_slug],
                          _LAYOUT)
    if found is None:
        return EnrolledPart(enrollment=None, part=None, module_numbers=False)
    (enrollment_row, course, module, part, exercise), (in_course, module_numbers, release_at,
                                                        module_due, own_due) = found
    enrollment = enrollment_joined(enrollment_row, course, module)
    if not isinstance(part, Part) or not isinstance(exercise, Exercise) or not in_course:
        return EnrolledPart(enrollment=enrollment, part=None, module_numbers=bool(module_numbers))
    part.exercise = exercise
    dates = (value_from_db(release_at, CourseModule, "release_at"),
             value_from_db(module_due, CourseModule, "due_at"),
             value_from_db(own_due, Deadline, "due_at"))
    return EnrolledPart(enrollment=enrollment, part=part, module_numbers=bool(module_numbers),
                        dates=dates)


_SUBMISSION = ModelColumns(Submission, "s")


@functools.cache
def _history_statement(vendor: str) -> str:
    """For this database's quoting. Columns by name, not `*`: a prepared `*` fails once a
    migration adds a column, until the connection is renewed."""
    # Only the model's own table and column names are put into the statement.
    return (f"SELECT {_SUBMISSION.select} "  # noqa: S608
            f"FROM {Submission._meta.db_table} s WHERE s.student_id = %s "
            "AND s.course_id = %s AND s.part_id = %s ORDER BY s.created_at, s.id")


def part_history(*, student_id: int, course_id: int, part_id: int) -> list[Submission]:
    """The student's answers to the part in the course, oldest first (what the answered-in-
    place fragment lists after every answer). One uncompiled statement."""
    with connection.cursor() as cursor:  # a plain cursor: QuerySet.raw() costs more than the read
        cursor.execute(_history_statement(connection.vendor), [student_id, course_id, part_id])
        rows = cursor.fetchall()
    return [cast(Submission, _SUBMISSION.instance(row)) for row in rows]
