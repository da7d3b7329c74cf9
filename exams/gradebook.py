"""The course's assessments in the gradebook (grading/gradebook_items.py's source, registered
by exams/hooks.py): a column per assessment with its weight, a cell per student from the kept
scores (exams/scores.py), read with one query whatever the size of the class."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import OuterRef, Subquery

from core.content_cache import content_cached
from courses.models import Course, CourseModule
from exams.models import Assessment, AssessmentScore
from grading.gradebook_items import ItemCell, ItemCells, ItemColumn


@dataclass(frozen=True)
class _Placed:
    column: ItemColumn
    release_at: datetime | None  # its module's release in the course


def _course_columns(course_id: int) -> list[_Placed]:
    links = CourseModule.objects.filter(course_id=course_id, module_id=OuterRef("module_id"))
    found = (Assessment.objects.filter(module_id__in=links.values("module_id"),
                                       archived_at__isnull=True)
             .annotate(release_at=Subquery(links.values("release_at")[:1]))
             .order_by("opens_at", "slug"))
    return [_Placed(ItemColumn(id=a.pk, slug=a.slug, title=a.title, kind=a.kind,
                               weight=a.weight, closes_at=a.closes_at), a.release_at)
            for a in found]


class AssessmentItems:
    """The gradebook's assessment columns and cells."""

    def columns(self, *, course: Course, released_at: datetime | None) -> list[ItemColumn]:
        """The course's assessments (of the modules it runs, not archived) by opening time;
        from the content cache (no query once cached). `released_at`: only those of the
        modules released by then."""
        placed = content_cached(f"assessment-columns:{course.pk}",
                                lambda: _course_columns(course.pk))
        return [p.column for p in placed
                if released_at is None or p.release_at is None or p.release_at <= released_at]

    def cells(self, *, course: Course, student_ids: list[int] | None,
              columns: list[ItemColumn]) -> dict[int, ItemCells]:
        """The kept scores of `columns` by student id (None: the whole course); one query."""
        rows = AssessmentScore.objects.filter(course=course,
                                              assessment_id__in=[c.id for c in columns])
        if student_ids is not None:
            rows = rows.filter(student_id__in=student_ids)
        found: dict[int, ItemCells] = {}
        for student_id, assessment_id, score, released, attempts, in_progress in (
                rows.values_list("student_id", "assessment_id", "score", "released",
                                 "attempts", "in_progress").order_by()):
            found.setdefault(student_id, {})[assessment_id] = ItemCell(
                score=score, released=released, attempts=attempts, in_progress=in_progress)
        return found
