"""A student's drill-down: the questions with the student's own numbers, every answer as
typed, lab runs, overrides and extensions."""

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch

from courses.models import Course, Enrollment
from courses.selectors import course_exercises, student_enrollment_find
from grading.answer_display import AnswerView, answer_views
from grading.course_total import ModuleColumn, explanation
from grading.gradebook import GradebookRow, PartColumn, gradebook, module_columns
from grading.gradebook_items import ItemCell, ItemColumn
from grading.misconception_clearing import TagState, open_misconceptions
from grading.models import DeadlineExtension, GradeOverride, Review, Submission
from grading.variant_assignment import default_variant_students, variant_of
from grading.variant_numbers import StudentQuestion, student_question
from instructor.progress import MatrixCell, matrix_cell
from labs.models import LabRun


@dataclass(frozen=True)
class StudentDetail:
    enrollment: Enrollment
    columns: list[PartColumn]
    row: GradebookRow
    total_points: float
    submissions: list[Submission]  # oldest first, each with its reviews
    lab_runs: list[LabRun]  # newest first
    overrides: list[GradeOverride]  # the audit trail, oldest first
    extensions: list[DeadlineExtension]
    questions: list[StudentQuestion]  # each exercise in the student's variant, module order
    open_misconceptions: list[TagState]  # shown and not cleared, latest first
    items: list[ItemColumn] = field(default_factory=list)  # the course's assessments

    @property
    def answers(self) -> list[AnswerView]:
        """`submissions` described (outcome, score and its penalty), oldest first."""
        by_part: dict[int, list[Submission]] = defaultdict(list)
        for submission in self.submissions:
            by_part[submission.part_id].append(submission)
        described = {view.submission.pk: view for part in by_part.values()
                     for view in answer_views(part, penalty=part[0].part.exercise.penalty)}
        return [described[s.pk] for s in self.submissions]

    @property
    def earned(self) -> float:
        return self.row.earned(self.columns)

    @property
    def course_percent(self) -> float | None:
        """The weighted course total (grading/course_total.py)."""
        return self.row.course_percent(self.columns, self.items)

    @property
    def module_totals(self) -> list[tuple[ModuleColumn, float]]:
        """Each module with the points the student earned in it (shown for several)."""
        earned = self.row.module_earned(self.columns)
        return [(m, earned.get(m.module_id, 0.0)) for m in module_columns(self.columns)]

    @property
    def explanation(self) -> str:
        return explanation(module_columns(self.columns),
                           [(i.title, i.weight) for i in self.items])

    @property
    def assessments(self) -> list[tuple[ItemColumn, ItemCell | None]]:
        """Each assessment of the course with the student's kept score (None: no attempt)."""
        return [(item, self.row.items.get(item.id)) for item in self.items]

    @property
    def grades(self) -> list[tuple[PartColumn, MatrixCell]]:
        return [(column, matrix_cell(self.row, column)) for column in self.columns]

    @property
    def exercises(self) -> list[tuple[int, str]]:
        """The course's exercises (id, title) in order, for the extension form."""
        seen: dict[int, str] = {}
        for column in self.columns:
            seen.setdefault(column.exercise_id, column.exercise_title)
        return list(seen.items())


def student_detail(*, course: Course, student_id: int) -> StudentDetail | None:
    """Everything one student of the course did, and each question with the student's own
    numbers, and the misconceptions they showed and have not cleared; None for anyone who is
    not a student of the course. Seventeen queries however much the student did."""
    enrollment = student_enrollment_find(course=course, student_id=student_id)
    if enrollment is None:
        return None
    student = enrollment.user
    book = gradebook(course=course, student=student)
    row = book.rows[0] if book.rows else GradebookRow(
        student_id=student.pk, username=student.username,
        name=student.get_full_name() or student.username, email=student.email,
        group=enrollment.group, external_id=enrollment.external_id)
    submissions = list(
        Submission.objects.filter(course=course, student=student)
        .select_related("part__exercise")
        .prefetch_related(Prefetch("reviews", queryset=Review.objects.select_related("reviewer")))
        .order_by("created_at", "id")
    )
    lab_runs = list(
        LabRun.objects.filter(course=course, requester=student)
        .select_related("lab", "submission__part__exercise")
        .defer("result").order_by("-queued_at", "-id")
    )
    overrides = list(GradeOverride.objects.filter(course=course, student=student)
                     .select_related("part__exercise", "created_by").order_by("created_at", "id"))
    extensions = list(DeadlineExtension.objects.filter(course=course, student=student)
                      .select_related("exercise", "granted_by").order_by("exercise__order"))
    default = bool(default_variant_students(course=course, student_ids=[student.pk]))
    questions = [
        student_question(
            exercise=exercise, part_prompts=[(p.key, p.prompt) for p in exercise.parts.all()],
            variant=variant_of(course=course, exercise=exercise, student_id=student.pk,
                               default=default))
        for exercise in course_exercises(course=course)
    ]
    return StudentDetail(enrollment=enrollment, columns=book.columns, row=row,
                         total_points=book.total_points, submissions=submissions,
                         lab_runs=lab_runs, overrides=overrides, extensions=extensions,
                         questions=questions, items=book.items,
                         open_misconceptions=open_misconceptions(course=course,
                                                                 student_id=student.pk))
