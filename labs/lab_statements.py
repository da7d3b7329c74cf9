"""Hand-written statements for a student's lab page and run requests: the user's enrolment
with the lab asked for, the student's latest runs of it, and the predictions it grades that
the student has yet to commit.

Through the ORM these cost about 10 ms of Python on every lab page and run request (the
query compilation of a JSON lookup, a `defer` and two subqueries, docs/scaling.md); here
they are uncompiled statements whose rows are cut into the same model instances
(`core.sql_rows`), compared with the ORM's in tests/labs/test_lab_statements.py.
"""

import functools
from dataclasses import dataclass
from typing import cast

from django.db import connection

from core.sql_rows import ModelColumns, row_instances, selects
from courses.models import CourseModule, Enrollment, Exercise, Lab, Part, Section
from courses.selectors import ENROLLED_FROM, ENROLLED_LAYOUT, ENROLLED_WHERE, enrollment_joined
from grading.models import Submission
from labs.models import LabRun

_ENROLLED_LAB = (*ENROLLED_LAYOUT, ModelColumns(Lab, "l"), ModelColumns(Section, "s"))
_RUN = ModelColumns(LabRun, "r", deferred=("result",))
_EXERCISE = ModelColumns(Exercise, "x")


@functools.cache
def _enrolled_lab_statement(vendor: str) -> str:
    """For this database's quoting (`vendor` keys the cache). Parameters: the lab's slug,
    then `ENROLLED_WHERE`'s."""
    # Only the models' own table names are put into the statement; values are parameters.
    return (
        f"SELECT {selects(_ENROLLED_LAB)} {ENROLLED_FROM} "  # noqa: S608
        f"LEFT JOIN {Lab._meta.db_table} l ON l.slug = %s AND l.archived_at IS NULL "
        f"AND EXISTS(SELECT 1 FROM {CourseModule._meta.db_table} cm "
        f"WHERE cm.course_id = c.id AND cm.module_id = l.module_id) "
        f"LEFT JOIN {Section._meta.db_table} s ON s.id = l.section_id {ENROLLED_WHERE}"
    )


@dataclass(frozen=True)
class EnrolledLab:
    """What the statement found: the enrolment (None: the user is not an active member of
    the course) and the lab (None: no such active lab in a module the course runs)."""

    enrollment: Enrollment | None
    lab: Lab | None


def enrolled_lab_get(*, user_id: int, course_slug: str, lab_slug: str) -> EnrolledLab:
    """The user's active enrolment in the course (its course and module loaded) and the
    active lab `lab_slug` of a module the course runs (its section loaded). One statement."""
    found = row_instances(_enrolled_lab_statement(connection.vendor),
                          [lab_slug, user_id, course_slug], _ENROLLED_LAB)
    if found is None:
        return EnrolledLab(enrollment=None, lab=None)
    enrollment_row, course, module, lab, section = found[0]
    enrollment = enrollment_joined(enrollment_row, course, module)
    if not isinstance(lab, Lab):
        return EnrolledLab(enrollment=enrollment, lab=None)
    lab.section = cast(Section, section)
    return EnrolledLab(enrollment=enrollment, lab=lab)


@functools.cache
def _runs_statement(vendor: str) -> str:
    # Only the model's own table and column names are put into the statement.
    return (f"SELECT {_RUN.select} FROM {LabRun._meta.db_table} r "  # noqa: S608
            "WHERE r.lab_id = %s AND r.course_id = %s AND r.requester_id = %s "
            "ORDER BY r.queued_at DESC, r.id DESC LIMIT %s")


def lab_runs_latest(*, lab_id: int, course_id: int, requester_id: int, limit: int,
                    ) -> list[LabRun]:
    """The requester's latest `limit` runs of the lab in the course, newest first, their
    `result` deferred (loaded only if read). One statement."""
    with connection.cursor() as cursor:
        cursor.execute(_runs_statement(connection.vendor),
                       [lab_id, course_id, requester_id, limit])
        rows = cursor.fetchall()
    return [cast(LabRun, _RUN.instance(row)) for row in rows]


@functools.cache
def _due_statement(vendor: str) -> str:
    # The part's `spec.lab` as text: PostgreSQL's jsonb operator, SQLite's JSON1 function.
    lab_of_part = "p.spec ->> 'lab'" if vendor == "postgresql" else "json_extract(p.spec, '$.lab')"
    # Only the models' own table names are put into the statement; values are parameters.
    return (
        f"SELECT {_EXERCISE.select} FROM {Part._meta.db_table} p "  # noqa: S608
        f"JOIN {Exercise._meta.db_table} x ON x.id = p.exercise_id "
        f"WHERE p.archived_at IS NULL AND x.archived_at IS NULL AND x.module_id = %s "
        f"AND {lab_of_part} = %s AND NOT EXISTS(SELECT 1 FROM {Submission._meta.db_table} s "
        "WHERE s.part_id = p.id AND s.student_id = %s AND s.course_id = %s "
        "AND s.counts_as_attempt) "
        'ORDER BY x."order", x.id, p."order", p.id'
    )


def lab_predictions_due(*, module_id: int, lab_slug: str, course_id: int,
                        student_id: int | None) -> list[Exercise]:
    """The active exercises of the module with an active part graded by the lab
    (`spec.lab`) in which the student has made no counted attempt, in exercise order, each
    once. One statement."""
    with connection.cursor() as cursor:
        cursor.execute(_due_statement(connection.vendor),
                       [module_id, lab_slug, student_id, course_id])
        rows = cursor.fetchall()
    exercises: dict[int, Exercise] = {}
    for row in rows:
        exercise = cast(Exercise, _EXERCISE.instance(row))
        exercises.setdefault(exercise.pk, exercise)
    return list(exercises.values())
