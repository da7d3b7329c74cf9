"""The dashboard's first page: the class at a glance, with its two charts."""

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.db.models import Count, F, QuerySet, Sum, Value
from django.db.models.functions import Floor, TruncDate
from django.utils import timezone

from courses.models import Course
from courses.selectors import course_students
from grading.gradebook import gradebook_columns
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


def course_overview(*, course: Course) -> Overview:
    """Class size, mean score, answers awaiting review, and the score-distribution and
    completion-over-time charts, from aggregates over the kept progress rows. Five queries
    whatever the size of the class, and no row per student read."""
    columns = gradebook_columns(course=course)
    total = sum(c.points for c in columns)
    students = course_students(course=course).values("user_id")
    size = students.count()
    counts, earned, waiting = _score_bins(course, students, total, size)
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
        mean_pct=100.0 * earned / total / size if total and size else None,
        awaiting_review=waiting,
        completion_pct=100.0 * sum(days.values()) / pairs if pairs else 0.0,
        score_chart=histogram_svg(counts=counts, labels=labels,
                                  title="Score distribution", x_label="total score, % (bin start)"),
        completion_chart=line_svg(points=completion_series_counted(days, pairs),
                                  title="Completion over time",
                                  y_label="% of answers solved"),
    )
