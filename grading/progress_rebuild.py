"""Rebuilding a course's progress rows from scratch (for repair, and after bulk loads): its
submissions read once, in (student, part, id) order, folded (grading/progress_fold.py) and
written in bulk (PostgreSQL's COPY, elsewhere bulk_create)."""

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from django.db import connection, transaction

from core.sql import chunked_rows, copy_rows
from courses.models import Course, Part
from grading.models import GradeOverride, PartProgress, StudentProgress, Submission, WrongAnswerCount
from grading.progress_fold import FOLD_COLUMNS, PART_FIELDS, Fold, fold_values
from grading.progress_totals import student_totals
from grading.variant_keys import parameter_definitions
from grading.wrong_answer_counts import Sums, wrong_answer_counts_add


def _chunks(rows: Any) -> Iterator[list[tuple[Any, ...]]]:
    """The rows of a values_list query, 5,000 at a time, through a server-side cursor; on
    PostgreSQL read raw (the driver's values are final; the ORM's per-row work would double
    the time), elsewhere through the ORM (SQLite's raw times are naive)."""
    if connection.vendor == "postgresql":
        yield from chunked_rows(rows, 5000)
        return
    chunk = []
    for row in rows.iterator(chunk_size=5000):
        chunk.append(row)
        if len(chunk) >= 5000:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _row(course_id: int, key: tuple[int, int], fold: Fold,
         overrides: dict[tuple[int, int], tuple[float | None, datetime]],
         definitions: dict[int, str], sums: Sums) -> tuple[Any, ...]:
    """The PartProgress values of a fold (its wrong answers also added to `sums`)."""
    values, kinds = fold_values(fold, overrides.pop(key, None), definitions.get(key[1], "{}"))
    wrong_answer_counts_add(sums, key[1], kinds)
    return (course_id, key[0], key[1], *(values[name] for name in PART_FIELDS))


def _write_rows(model: Any, columns: tuple[str, ...], rows: Iterator[tuple[Any, ...]]) -> int:
    """Insert `rows` (values of `columns`): PostgreSQL's COPY, else bulk_create in batches.
    Returns how many."""
    written = 0
    batch: list[tuple[Any, ...]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= 20000:
            written += _insert(model, columns, batch)
            batch = []
    return written + _insert(model, columns, batch)


def _insert(model: Any, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> int:
    if not rows:
        return 0
    if connection.vendor == "postgresql":
        # One COPY per batch: between batches the connection is free again for the
        # server-side cursor the rows come from.
        copy_rows(model, columns, rows)
    else:
        model.objects.bulk_create([model(**dict(zip(columns, row, strict=True))) for row in rows])
    return len(rows)


def progress_rebuild(*, course: Course,
                     progress: Callable[[int, int], None] | None = None) -> int:
    """Delete and recompute every progress row of the course from its submissions and
    overrides (for repair, and after bulk loads). Returns the PartProgress rows written.
    Reads the submissions once, in (student, part, id) order, through a server-side
    cursor; `progress(done, total)` is called every 10,000 submissions and at the end."""
    submissions = Submission.objects.filter(course_id=course.pk)
    total = submissions.count()
    latest_override: dict[tuple[int, int], tuple[float | None, datetime]] = {}
    for student_id, part_id, score, at in (
            GradeOverride.objects.filter(course_id=course.pk).order_by("created_at", "id")
            .values_list("student_id", "part_id", "score", "created_at")):
        latest_override[(student_id, part_id)] = (score, at)
    columns = ("course_id", "student_id", "part_id", *PART_FIELDS)
    definitions = {pk: parameter_definitions(parameters) for pk, parameters in
                   Part.objects.values_list("pk", "exercise__parameters")}
    sums: Sums = {}
    with transaction.atomic():
        PartProgress.objects.filter(course_id=course.pk).delete()
        StudentProgress.objects.filter(course_id=course.pk).delete()
        WrongAnswerCount.objects.filter(course_id=course.pk).delete()

        def part_rows() -> Iterator[tuple[Any, ...]]:
            rows = submissions.order_by("student_id", "part_id", "id").values_list(
                "student_id", "part_id", *FOLD_COLUMNS)
            current: tuple[int, int] | None = None
            fold = Fold()
            done = 0
            for chunk in _chunks(rows):
                for student_id, part_id, *rest in chunk:
                    key = (student_id, part_id)
                    if key != current:
                        if current is not None:
                            yield _row(course.pk, current, fold, latest_override, definitions,
                                       sums)
                        current, fold = key, Fold()
                    fold.add(*rest)
                done += len(chunk)
                if progress is not None:
                    progress(done, total)
            if current is not None:
                yield _row(course.pk, current, fold, latest_override, definitions, sums)
            for key in list(latest_override):  # overridden parts without any answer
                yield _row(course.pk, key, Fold(), latest_override, definitions, sums)

        written = _write_rows(PartProgress, columns, part_rows())
        StudentProgress.objects.bulk_create(
            (StudentProgress(course_id=course.pk, student_id=sid, **values)
             for sid, values in student_totals(course.pk, None)), batch_size=5000)
        _write_rows(WrongAnswerCount, ("course_id", "part_id", "digest", "misconception",
                                       "canonical", "answers", "students"),
                    ((course.pk, part_id, digest, *entry) for (part_id, digest), entry
                     in sums.items()))
    if progress is not None:
        progress(total, total)
    return written
