"""CSV exports, produced line by line for streaming: the gradebook (a row per student) and
every submission of the course (read in chunks, so a large class does not fill memory).

Every text cell goes through `csv_safe`, so a name or an answer starting with `=`, `+`, `-`
or `@` is not run as a formula by a spreadsheet.
"""

import csv
import io
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from core.sql import chunked_rows, raw_rows
from courses.models import Course
from grading.gradebook import (
    ROW_COLUMNS,
    PartColumn,
    csv_course_total,
    csv_item_cells,
    csv_safe,
    csv_text,
    db_datetime,
    gradebook_columns,
    gradebook_csv_rows,
    gradebook_students,
    module_columns,
)
from grading.gradebook_items import ItemColumn, item_cells, item_columns, item_weights
from grading.models import PartProgress, Submission

CHUNK = 2000
#: Students per gradebook CSV batch: one query for their scores, one string of lines.
CSV_BATCH = 1000

SUBMISSION_HEADER = [
    "submission_id", "username", "exercise", "part", "variant_seed", "submitted_at", "outcome",
    "score", "points", "counts_as_attempt", "misconception", "answer_as_typed", "canonical",
    "feedback", "graded_at",
]


def gradebook_csv(*, course: Course, group: str = "", module_id: int | None = None) -> Iterator[str]:
    """The course gradebook as CSV text (header first; overrides applied), streamed in
    constant memory: students through a server-side cursor, their scores a batch at a time.
    With `module_id`, that module's columns only (its points and percent as the course total).
    The course's assessments follow the parts (score in percent, released), and count in
    the course total as grading/gradebook_items.py says; none with `module_id`.

    The same text as `csv_text(gradebook_csv_rows(columns, gradebook_iter(...)))`, without
    building a GradebookRow and a PartCell per student and cell: each batch reads only the
    (student, part, score) triples it prints and yields its lines as one string."""
    columns = gradebook_columns(course=course, module_id=module_id)
    items = [] if module_id is not None else item_columns(course=course)
    yield from csv_text(gradebook_csv_rows(columns, [], items))  # the header
    students = gradebook_students(course=course, group=group or None).values_list(*ROW_COLUMNS)
    batch: list[tuple[Any, ...]] = []
    for student in students.iterator(chunk_size=CSV_BATCH):
        batch.append(student)
        if len(batch) >= CSV_BATCH:
            yield _gradebook_lines(course, columns, batch, items)
            batch = []
    if batch:
        yield _gradebook_lines(course, columns, batch, items)


def _gradebook_lines(course: Course, columns: list[PartColumn],
                     students: list[tuple[Any, ...]], items: list[ItemColumn]) -> str:
    """The CSV lines of `students` (tuples of ROW_COLUMNS), as `gradebook_csv_rows` prints
    them; one query for their scores, one more for their assessment scores (if any)."""
    scores: dict[int, dict[int, float | None]] = {s[0]: {} for s in students}
    cells = (PartProgress.objects.filter(course=course, student_id__in=list(scores))
             .filter(Q(submissions__gt=0) | Q(overridden=True))
             .values_list("student_id", "part_id", "best_score").order_by())
    for student_id, part_id, best in raw_rows(cells):
        scores[student_id][part_id] = best
    assessed = item_cells(course=course, student_ids=list(scores), columns=items)
    now = timezone.now()
    points = [(c.id, c.points, c.module_id) for c in columns]
    modules = module_columns(columns)
    total_points = f"{sum(c.points for c in columns):g}"
    out = io.StringIO()
    writer = csv.writer(out)
    for user_id, username, first, last, email, group_label, external_id in students:
        mine = scores[user_id]
        row = [csv_safe(username), csv_safe(f"{first} {last}".strip() or username),
               csv_safe(email), csv_safe(external_id), csv_safe(group_label)]
        earned = 0.0
        per_module = dict.fromkeys((m.module_id for m in modules), 0.0)
        for part_id, weight, module_id in points:
            if part_id not in mine:
                row.append("")
                continue
            best = mine[part_id]
            row.append("" if best is None else f"{best * weight:g}")
            earned += (best or 0.0) * weight
            per_module[module_id] += (best or 0.0) * weight
        mine_items = assessed.get(user_id, {})
        row += [*csv_item_cells(items, mine_items),
                *csv_course_total(per_module, modules, item_weights(items, mine_items, now)),
                f"{earned:g}", total_points]
        writer.writerow(row)
    return out.getvalue()


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
    # A chunked cursor (server-side on PostgreSQL) read CHUNK rows at a time, without the
    # ORM's per-value converters, which cost more than the query for a large course.
    for rows in chunked_rows(query, CHUNK):
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
