"""A student's course totals (StudentProgress) from their PartProgress rows: one student's
in the transaction that changes a verdict, many students' at once for a lecture-hall
reveal, every student's at a rebuild."""

from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Count, Exists, F, FloatField, Max, OuterRef, Q, Sum, Value
from django.db.models.functions import Coalesce

from core.sql import rows_save
from courses.models import Part
from grading.models import PartProgress, StudentProgress
from grading.progress_fold import STUDENT_FIELDS


def _active_parts() -> Any:
    return Part.objects.active().filter(exercise__archived_at__isnull=True)


def student_totals(course_id: int, student_ids: Iterable[int] | None) -> Iterator[
        tuple[int, dict[str, Any]]]:
    """(student id, StudentProgress values) from the PartProgress rows of active parts."""
    rows = PartProgress.objects.filter(course_id=course_id)
    if student_ids is not None:
        rows = rows.filter(student_id__in=list(student_ids))
    active = _active_parts().filter(pk=OuterRef("part_id"))
    counted = Q(Exists(active))
    # Points and parts solved count the active parts (the gradebook's columns); attempts,
    # answers awaiting review and the last activity every part, as the gradebook rows do.
    grouped = rows.values("student_id").annotate(
        total=Coalesce(Sum(F("best_score") * F("part__points"), filter=counted,
                           output_field=FloatField()), Value(0.0)),
        attempts_sum=Coalesce(Sum("attempts"), Value(0)),
        parts_solved=Count("id", filter=counted & Q(correct=True)),
        review_sum=Coalesce(Sum("awaiting_review"), Value(0)),
        last_activity=Max("last_submitted_at"),
        changed=Max("changed_at"),
    ).order_by()
    for row in grouped:
        yield row["student_id"], {
            "total": float(row["total"]), "attempts": row["attempts_sum"],
            "parts_solved": row["parts_solved"], "awaiting_review": row["review_sum"],
            "last_activity": row["last_activity"], "changed_at": row["changed"]}


def student_progress_refresh(*, course_id: int, student_id: int) -> None:
    """Recompute the student's course totals from their PartProgress rows, the totals row
    locked first (so concurrent refreshes of two parts add up). Three queries."""
    row, _ = StudentProgress.objects.select_for_update().get_or_create(
        course_id=course_id, student_id=student_id)
    for _sid, values in student_totals(course_id, [student_id]):
        for name, value in values.items():
            setattr(row, name, value)
        row.save(update_fields=list(values))


def students_progress_refresh(*, course_id: int, student_ids: Iterable[int],
                              create: Iterable[int] = ()) -> None:
    """`student_progress_refresh` for many students: their totals rows locked (in id order;
    created if missing for the students in `create`) and recomputed from their PartProgress
    rows; three queries (five when rows are created)."""
    ids = sorted(set(student_ids) | set(create))
    if not ids:
        return
    rows = rows_locked(StudentProgress, course_id=course_id, student_ids=ids, create=create)
    for student_id, values in student_totals(course_id, list(rows)):
        for name, value in values.items():
            setattr(rows[student_id], name, value)
    rows_save(StudentProgress, list(rows.values()), STUDENT_FIELDS)


def rows_locked(model: Any, *, course_id: int, student_ids: list[int],
                 create: Iterable[int] = (), **key: int) -> dict[int, Any]:
    """The course's existing rows of `model` for `student_ids` (and `key`), {student id:
    row}, locked in id order (so two batches never wait for each other in a circle); the
    rows of the students in `create` are created first if missing (a concurrent creator's
    row is then the one locked)."""
    rows = model.objects.select_for_update().filter(course_id=course_id,
                                                   student_id__in=student_ids, **key)
    found = {row.student_id: row for row in rows.order_by("pk")}
    missing = set(create) - set(found)
    if missing:
        model.objects.bulk_create([model(course_id=course_id, student_id=student_id, **key)
                                   for student_id in sorted(missing)], ignore_conflicts=True)
        found = {row.student_id: row for row in rows.order_by("pk")}
    return found
