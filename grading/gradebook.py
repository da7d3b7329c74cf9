"""The gradebook: each student's best score per part of a course, aggregated in SQL.

One query for the students, one for the parts, one aggregate over submissions: the number
of queries does not grow with the class. Scores are fractions (0..1) of a part's points;
`earned` is in points.
"""

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Count, Max, Q

from courses.models import Course, Enrollment, Part
from grading.models import Submission

#: Outcomes whose score counts toward the gradebook.
SCORED = (Submission.Outcome.CORRECT, Submission.Outcome.PARTIAL, Submission.Outcome.INCORRECT)


@dataclass(frozen=True)
class PartColumn:
    id: int
    exercise_slug: str
    exercise_title: str
    key: str
    points: float

    @property
    def label(self) -> str:
        return f"{self.exercise_title} / {self.key}"


@dataclass
class PartCell:
    best_score: float | None = None  # fraction of the part's points; None = nothing scored
    attempts: int = 0
    pending: int = 0  # answers awaiting a reviewer or a lab
    correct: bool = False
    last_activity: datetime | None = None


@dataclass
class GradebookRow:
    student_id: int
    username: str
    name: str
    email: str
    group: str
    external_id: str
    cells: dict[int, PartCell] = field(default_factory=dict)

    def earned(self, columns: list[PartColumn]) -> float:
        """Points earned over `columns` (best score per part times its points)."""
        return sum(
            (self.cells[c.id].best_score or 0.0) * c.points for c in columns if c.id in self.cells
        )

    @property
    def last_activity(self) -> datetime | None:
        times = [c.last_activity for c in self.cells.values() if c.last_activity is not None]
        return max(times) if times else None


@dataclass
class Gradebook:
    course: Course
    columns: list[PartColumn]
    rows: list[GradebookRow]

    @property
    def total_points(self) -> float:
        return sum(c.points for c in self.columns)


def gradebook_columns(*, course: Course) -> list[PartColumn]:
    """The active parts of the course's module, in module order."""
    parts = (
        Part.objects.active()
        .filter(exercise__module_id=course.module_id, exercise__archived_at__isnull=True)
        .select_related("exercise")
        .order_by("exercise__order", "order")
    )
    return [PartColumn(id=p.pk, exercise_slug=p.exercise.slug, exercise_title=p.exercise.title,
                       key=p.key, points=p.points) for p in parts]


def gradebook(
    *, course: Course, updated_since: datetime | None = None, student: User | None = None,
    group: str | None = None,
) -> Gradebook:
    """The course's gradebook: active students, their best score and attempts per part.

    `updated_since` keeps only students with a submission graded at or after it (for
    incremental sync); `student` and `group` narrow the rows. Three queries in all.
    """
    enrollments = Enrollment.objects.filter(
        course=course, role=Enrollment.Role.STUDENT, is_active=True
    ).select_related("user").order_by("user__last_name", "user__first_name", "user__username")
    submissions = Submission.objects.filter(course=course)
    if student is not None:
        enrollments = enrollments.filter(user=student)
        submissions = submissions.filter(student=student)
    if group:
        enrollments = enrollments.filter(group=group)
        submissions = submissions.filter(student__enrollments__course=course,
                                         student__enrollments__group=group)
    if updated_since is not None:
        changed = Submission.objects.filter(course=course, graded_at__gte=updated_since)
        enrollments = enrollments.filter(user_id__in=changed.values("student_id"))
        submissions = submissions.filter(student_id__in=changed.values("student_id"))

    columns = gradebook_columns(course=course)
    rows = {
        e.user_id: GradebookRow(
            student_id=e.user_id, username=e.user.username,
            name=e.user.get_full_name() or e.user.username, email=e.user.email,
            group=e.group, external_id=e.external_id,
        )
        for e in enrollments
    }
    aggregates = submissions.values("student_id", "part_id").annotate(
        best=Max("score", filter=Q(outcome__in=SCORED)),
        attempts=Count("id", filter=Q(counts_as_attempt=True)),
        pending=Count("id", filter=Q(outcome__in=[Submission.Outcome.REVIEW,
                                                  Submission.Outcome.PENDING])),
        correct=Count("id", filter=Q(outcome=Submission.Outcome.CORRECT)),
        last=Max("created_at"),
    )
    for agg in aggregates:
        row = rows.get(agg["student_id"])
        if row is None:
            continue
        row.cells[agg["part_id"]] = PartCell(
            best_score=agg["best"], attempts=agg["attempts"], pending=agg["pending"],
            correct=agg["correct"] > 0, last_activity=agg["last"],
        )
    return Gradebook(course=course, columns=columns, rows=list(rows.values()))


def gradebook_csv_lines(book: Gradebook) -> Iterator[list[str]]:
    """CSV rows of a gradebook (header first), one per student, for streaming."""
    yield ["username", "name", "email", "external_id", "group",
           *[c.label for c in book.columns], "total", "out_of"]
    for row in book.rows:
        scores = []
        for column in book.columns:
            cell = row.cells.get(column.id)
            scores.append("" if cell is None or cell.best_score is None
                          else f"{cell.best_score * column.points:g}")
        yield [row.username, row.name, row.email, row.external_id, row.group, *scores,
               f"{row.earned(book.columns):g}", f"{book.total_points:g}"]
