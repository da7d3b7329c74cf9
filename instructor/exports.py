"""CSV exports, produced line by line for streaming: the gradebook (a row per student) and
every submission of the course (read in chunks, so a large class does not fill memory).

Every text cell goes through `csv_safe`, so a name or an answer starting with `=`, `+`, `-`
or `@` is not run as a formula by a spreadsheet.
"""

from collections.abc import Iterator
from datetime import datetime

from django.db import connections

from courses.models import Course
from grading.gradebook import (
    csv_safe,
    csv_text,
    db_datetime,
    gradebook_columns,
    gradebook_csv_rows,
    gradebook_iter,
)
from grading.models import Submission

CHUNK = 2000

SUBMISSION_HEADER = [
    "submission_id", "username", "exercise", "part", "variant_seed", "submitted_at", "outcome",
    "score", "points", "counts_as_attempt", "misconception", "answer_as_typed", "canonical",
    "feedback", "graded_at",
]


def gradebook_csv(*, course: Course, group: str = "") -> Iterator[str]:
    """The course gradebook as CSV lines (header first; overrides applied), streamed in
    constant memory: students through a server-side cursor, their progress rows a batch at
    a time (grading.gradebook.gradebook_iter)."""
    columns = gradebook_columns(course=course)
    yield from csv_text(gradebook_csv_rows(columns, gradebook_iter(course=course,
                                                                   group=group or None)))


def _iso(value: datetime | str | None) -> str:
    moment = db_datetime(value)
    return "" if moment is None else moment.isoformat()


def _submission_rows(course: Course) -> Iterator[list[str]]:
    yield SUBMISSION_HEADER
    query = (
        Submission.objects.filter(course=course)
        .order_by("id")
        .values_list("id", "student__username", "part__exercise__slug", "part__key",
                     "variant_seed", "created_at", "outcome", "score", "part__points",
                     "counts_as_attempt", "misconception", "raw_answer", "canonical", "feedback",
                     "graded_at")
    )
    sql, params = query.query.sql_with_params()
    # A chunked cursor (server-side on PostgreSQL) read CHUNK rows at a time, without the
    # ORM's per-value converters, which cost more than the query for a large course.
    with connections[query.db].chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(CHUNK):
            for (pk, username, exercise, part, seed, created, outcome, score, points, counts,
                 misconception, raw, canonical, feedback, graded) in rows:
                yield [
                    str(pk), csv_safe(username), exercise, part,
                    "" if seed is None else str(seed), _iso(created), outcome,
                    "" if score is None else f"{score:g}",
                    "" if score is None else f"{score * points:g}", "1" if counts else "0",
                    csv_safe(misconception), csv_safe(raw), csv_safe(canonical),
                    csv_safe(feedback), _iso(graded),
                ]


def submissions_csv(*, course: Course) -> Iterator[str]:
    """Every submission of the course as CSV lines, oldest first, the answer exactly as typed
    (formula-safe). Reads the rows in chunks of CHUNK."""
    yield from csv_text(_submission_rows(course))
