"""The dashboard's first page: the class at a glance, with its two charts."""

from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import Min
from django.utils import timezone

from courses.models import Course
from courses.selectors import course_students
from grading.gradebook import db_datetime, gradebook, raw_rows
from grading.models import Submission
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
    if not pairs:
        return []
    per_day = Counter(first_solved)
    if not per_day:
        return []
    done, series = 0, [(min(per_day) - timedelta(days=1), 0.0)]  # the line starts at zero
    for day in sorted(per_day):
        done += per_day[day]
        series.append((day, 100.0 * done / pairs))
    return series


def course_overview(*, course: Course) -> Overview:
    """Class size, mean score, answers awaiting review, and the score-distribution and
    completion-over-time charts. Five queries whatever the size of the class."""
    book = gradebook(course=course)
    total = book.total_points
    percentages = [100.0 * row.earned(book.columns) / total for row in book.rows] if total else []
    waiting = sum(cell.awaiting_review for row in book.rows for cell in row.cells.values())
    students = course_students(course=course).values("user_id")
    columns = {c.id for c in book.columns}
    firsts = (Submission.objects.filter(course=course, outcome=Submission.Outcome.CORRECT,
                                        student_id__in=students, part_id__in=columns)
              .values_list("student_id", "part_id").annotate(first=Min("created_at"))
              .order_by())
    zone = timezone.get_current_timezone()
    moments = (db_datetime(first) for _, _, first in raw_rows(firsts))
    days = [moment.astimezone(zone).date() for moment in moments if moment is not None]
    pairs = len(book.rows) * len(book.columns)
    labels = [f"{10 * i}" for i in range(BINS)]
    return Overview(
        course=course, students=len(book.rows), parts=len(book.columns), total_points=total,
        mean_pct=sum(percentages) / len(percentages) if percentages else None,
        awaiting_review=waiting, completion_pct=100.0 * len(days) / pairs if pairs else 0.0,
        score_chart=histogram_svg(counts=score_distribution(percentages), labels=labels,
                                  title="Score distribution", x_label="total score, % (bin start)"),
        completion_chart=line_svg(points=completion_series(days, pairs),
                                  title="Completion over time",
                                  y_label="% of answers solved"),
    )
