"""The dashboard's first page: the class at a glance, with its two charts."""

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.db.models import Count, F, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce, Floor, TruncDate
from django.utils import timezone

from courses.models import Course
from courses.selectors import course_students
from grading.course_total import ModuleColumn, course_percent, explanation
from grading.gradebook import gradebook_columns, module_columns
from grading.models import PartProgress, StudentProgress
from instructor.charts import histogram_svg, line_svg

BINS = 10


@dataclass(frozen=True)
class Overview:
    course: Course
    students: int
    parts: int
    total_points: float
    mean_pct: float | None
    awaiting_review: int
    completion_pct: float  # of all (student, part) pairs solved
    score_chart: str  # SVG
    completion_chart: str  # SVG
    module_means: list["ModuleMean"]
    explanation: str  # how the course total is computed (grading/course_total.py)

    @property
    def modules(self) -> list[ModuleColumn]:
        return [m.module for m in self.module_means]


@dataclass(frozen=True)
class ModuleMean:
    module: ModuleColumn
    mean_pct: float | None  # the class's mean share of the module's points


def score_distribution(percentages: list[float], bins: int = BINS) -> list[int]:
    """How many of `percentages` (0..100) fall in each of `bins` equal bins; 100 goes in the
    last one."""
    counts = [0] * bins
    for pct in percentages:
        counts[min(bins - 1, max(0, int(pct * bins // 100)))] += 1
    return counts


def completion_series(first_solved: list[date], pairs: int) -> list[tuple[date, float]]:
    """Cumulative percentage of `pairs` (student, part) solved by the end of each day, from
    zero the day before the first."""
    return completion_series_counted(Counter(first_solved), pairs)


def completion_series_counted(per_day: Mapping[date, int],
                              pairs: int) -> list[tuple[date, float]]:
    """`completion_series` from the number of pairs first solved on each day."""
    if not pairs:
        return []
    if not per_day:
        return []
    done, series = 0, [(min(per_day) - timedelta(days=1), 0.0)]  # the line starts at zero
    for day in sorted(per_day):
        done += per_day[day]
        series.append((day, 100.0 * done / pairs))
    return series


def _score_bins(course: Course, students: QuerySet[Any, Any], total: float,
                size: int) -> tuple[list[int], float, int]:
    """`score_distribution` of the `size` students' total percentages, the points earned
    and the answers awaiting review, all in one aggregate (students without a progress row
    score 0)."""
    counts = [0] * BINS
    rows = StudentProgress.objects.filter(course=course, student_id__in=students)
    binned = (rows.annotate(bin=Floor(F("total") * BINS / total) if total else Value(0))
              .values("bin").annotate(n=Count("id"), earned=Sum("total"),
                                      waiting=Sum("awaiting_review")).order_by())
    seen, earned, waiting = 0, 0.0, 0
    for row in binned:
        counts[min(BINS - 1, max(0, int(row["bin"])))] += row["n"]
        seen += row["n"]
        earned += row["earned"] or 0.0
        waiting += row["waiting"] or 0
    counts[0] += size - seen
    return (counts if total else [0] * BINS), earned, waiting


def _module_sums(course: Course, students: QuerySet[Any, Any],
                 part_ids: list[int]) -> tuple[dict[int, float], int]:
    """Points earned by `students` per module id on `part_ids`, and their answers awaiting
    review there: one aggregate."""
    rows = (PartProgress.objects.filter(course=course, student_id__in=students, part_id__in=part_ids)
            .values("part__exercise__module_id")
            .annotate(earned=Sum(Coalesce(F("best_score"), Value(0.0)) * F("part__points")),
                      waiting=Sum("awaiting_review"))
            .order_by())
    earned = {row["part__exercise__module_id"]: row["earned"] or 0.0 for row in rows}
    return earned, sum(row["waiting"] or 0 for row in rows)


def _module_bins(course: Course, part_ids: list[int], total: float) -> list[int]:
    """`score_distribution` of every student's share of the points of `part_ids` (one
    module), binned in the database: one aggregate."""
    counts = [0] * BINS
    if not total:
        return counts
    points = Subquery(
        PartProgress.objects.filter(course=course, student_id=OuterRef("user_id"),
                                    part_id__in=part_ids)
        .values("student_id")
        .annotate(points=Sum(Coalesce(F("best_score"), Value(0.0)) * F("part__points")))
        .values("points"))
    binned = (course_students(course=course).annotate(points=Coalesce(points, Value(0.0)))
              .annotate(bin=Floor(F("points") * BINS / total)).values("bin")
              .annotate(n=Count("id")).order_by())
    for row in binned:
        counts[min(BINS - 1, max(0, int(row["bin"])))] += row["n"]
    return counts


def course_overview(*, course: Course, module_id: int | None = None) -> Overview:
    """Class size, mean score, answers awaiting review, the class's mean per module and the
    score-distribution and completion-over-time charts, from aggregates over the kept
    progress rows. Four queries whatever the size of the class (five for a course of several
    modules: the points per module), and no row per student read.

    The mean score is the mean weighted course total (grading/course_total.py); the score
    distribution is of points over the course's points. With `module_id`, all of it is of
    that module's parts only."""
    columns = gradebook_columns(course=course, module_id=module_id)
    total = sum(c.points for c in columns)
    modules = module_columns(columns)
    students = course_students(course=course).values("user_id")
    size = students.count()
    ids = [c.id for c in columns]
    if module_id is None:
        counts, earned, waiting = _score_bins(course, students, total, size)
        # One module: its points are the course's (no aggregate per module needed).
        per_module = ({modules[0].module_id: earned} if len(modules) == 1
                      else _module_sums(course, students, ids)[0])
    else:
        per_module, waiting = _module_sums(course, students, ids)
        counts = _module_bins(course, ids, total)
    means = {m: earned / size for m, earned in per_module.items()} if size else {}
    zone = timezone.get_current_timezone()
    per_day = (PartProgress.objects.filter(course=course, student_id__in=students,
                                           part_id__in=[c.id for c in columns],
                                           solved_at__isnull=False)
               .annotate(day=TruncDate("solved_at", tzinfo=zone)).values("day")
               .annotate(n=Count("id")).order_by())
    days = {row["day"]: row["n"] for row in per_day}
    pairs = size * len(columns)
    labels = [f"{10 * i}" for i in range(BINS)]
    return Overview(
        course=course, students=size, parts=len(columns), total_points=total,
        mean_pct=course_percent(means, modules) if size else None,
        awaiting_review=waiting,
        completion_pct=100.0 * sum(days.values()) / pairs if pairs else 0.0,
        score_chart=histogram_svg(counts=counts, labels=labels,
                                  title="Score distribution", x_label="total score, % (bin start)"),
        completion_chart=line_svg(points=completion_series_counted(days, pairs),
                                  title="Completion over time",
                                  y_label="% of answers solved"),
        module_means=[ModuleMean(module=m, mean_pct=100.0 * means.get(m.module_id, 0.0) / m.points
                                 if size and m.points else None) for m in modules],
        explanation=explanation(modules),
    )
