"""Student-facing reads: the module page with a student's own work, progress per section.

Everything a student page shows is built here as plain view objects: part specs stay on the
server (a `PartView` carries the prompt, the choice options' texts and the student's own
submissions, never a reference, misconception, rubric or correct key). Query counts do not
depend on how many attempts a student made or how many students a course has.
"""

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, F, Prefetch
from django.http import Http404
from django.utils import timezone

from courses.models import Course, CourseModule, Enrollment, Exercise, Figure, Lab, Part, Section
from courses.selectors import course_list_for_user, enrollment_get
from grading.answer_display import AnswerView, answer_views
from grading.deadlines import DeadlineStatus, deadline_statuses
from grading.models import Submission
from grading.preview import PREVIEWED_TYPES
from grading.public_spec import matrix_shape, public_spec
from grading.services import AttemptState, attempt_state_from
from grading.variant_assignment import Variant, variant_for
from grading.variant_numbers import (
    StudentQuestion,
    VariantNumber,
    student_question,
    variant_numbers,
)
from labs.models import LabRun
from labs.predictions import measured_value

#: Outcomes shown while the answer is still being graded (by a worker or a person).
WAITING = (Submission.Outcome.PENDING, Submission.Outcome.REVIEW)


@dataclass(frozen=True)
class PredictionView:
    """A locked prediction beside what the lab measured (None until the run has finished)."""

    lab_slug: str
    run: LabRun | None
    predicted: str
    measured: str | None

    @property
    def waiting(self) -> bool:
        return self.measured is None


@dataclass(frozen=True)
class PartView:
    """One answer box as the student sees it: prompt, options, their own attempts."""

    id: int
    key: str
    answer_type: str
    prompt: str
    points: float
    options: list[tuple[str, str]]
    multiple: bool
    state: AttemptState
    history: list[Submission]
    prediction: PredictionView | None = None
    answers: list[AnswerView] = field(default_factory=list)  # the history, described
    #: why the last answer sent was not accepted (deadline, attempts, not enrolled, ...),
    #: shown at the part
    notice: str = ""
    closed: bool = False  # the exercise's deadline (and late window) has passed
    shape: list[int] | None = None  # a matrix part's [rows, columns]: the grid of cells

    @property
    def cells(self) -> list[list[tuple[int, int, bool]]]:
        """A matrix part's grid, row by row: (row, column, marked wrong in the latest
        answer), 1-based; the wrong entries are those the latest verdict's feedback names
        ("Entries (1, 2), (2, 1) (row, column) are not right.", matrix.py)."""
        if not self.shape:
            return []
        latest = self.latest
        marks: set[tuple[int, int]] = set()
        if latest is not None and latest.outcome in ("incorrect", "partial"):
            named = re.search(r"Entr(?:y|ies) (.*?) \(row, column\)", latest.feedback or "")
            if named:
                marks = {(int(a), int(b)) for a, b in re.findall(r"\((\d+), (\d+)\)",
                                                                 named.group(1))}
        rows, cols = self.shape
        return [[(i, j, (i, j) in marks) for j in range(1, cols + 1)]
                for i in range(1, rows + 1)]

    @property
    def latest(self) -> Submission | None:
        return self.history[-1] if self.history else None

    @property
    def latest_answer(self) -> AnswerView | None:
        return self.answers[-1] if self.answers else None

    @property
    def history_summary(self) -> str:
        """The answers list's title: how many were stored, and how many used an attempt when
        that differs (it must agree with "Attempts used")."""
        stored, used = len(self.history), self.state.used
        if used == stored:
            return f"Your answers ({stored})"
        return f"Your answers ({stored}, {used or 'none'} used an attempt)"

    @property
    def previewable(self) -> bool:
        return self.answer_type in PREVIEWED_TYPES

    @property
    def can_answer(self) -> bool:
        """Whether a form is shown: attempts left, not yet solved, not closed by a deadline."""
        return not self.state.solved and self.state.left != 0 and not self.closed

    @property
    def waiting(self) -> bool:
        latest = self.latest
        return latest is not None and latest.outcome in WAITING

    @property
    def initial(self) -> str:
        """What the answer box starts with: the last answer typed (nothing typed is lost)."""
        latest = self.latest
        return latest.raw_answer if latest is not None and self.can_answer else ""

    @property
    def read_as(self) -> str:
        """How the latest answer was read: a choice answer as its options' texts, never
        their keys."""
        latest = self.latest
        if latest is None or not latest.canonical:
            return ""
        return choice_texts(latest.canonical, self.options) if self.options else latest.canonical

    @property
    def history_rows(self) -> list[tuple[AnswerView, str]]:
        """Each answer described, with what the student gave (a choice as its text)."""
        return [(a, choice_texts(a.submission.raw_answer, self.options) if self.options
                 else a.submission.raw_answer) for a in self.answers]

    @property
    def chosen(self) -> list[str]:
        """Option keys of the latest answer (choice parts), to keep the selection checked."""
        latest = self.latest
        if latest is None:
            return []
        return [key.strip().lower() for key in latest.raw_answer.split(",") if key.strip()]


@dataclass(frozen=True)
class ExerciseView:
    exercise: Exercise
    prompt: str
    parts: list[PartView]
    #: the student's own numbers, as the question uses them (empty: the same for everyone)
    numbers: list[VariantNumber] = field(default_factory=list)
    #: whether those are the module's own numbers (the default variant)
    module_numbers: bool = False
    #: the student's deadline on it (None: no deadline), and whether it has closed
    deadline: DeadlineStatus | None = None
    closed: bool = False

    @property
    def slug(self) -> str:
        return self.exercise.slug

    @property
    def title(self) -> str:
        return self.exercise.title

    @property
    def is_prediction(self) -> bool:
        return self.exercise.kind == Exercise.Kind.PREDICT

    @property
    def short_title(self) -> str:
        """The title without a leading "Predict: " (the page says "Predict, then try")."""
        return self.exercise.title.removeprefix("Predict: ")


@dataclass(frozen=True)
class SectionProgress:
    """Parts of a section's exercises: how many exist, were answered, were solved."""

    total: int = 0
    answered: int = 0
    solved: int = 0

    @property
    def percent(self) -> int:
        return round(100 * self.solved / self.total) if self.total else 0


@dataclass(frozen=True)
class LabView:
    lab: Lab
    runs: int


@dataclass(frozen=True)
class SectionView:
    section: Section
    figures: list[Figure]
    labs: list[LabView]
    predictions: list[ExerciseView]
    exercises: list[ExerciseView]
    progress: SectionProgress

    @property
    def predictions_locked(self) -> bool:
        """Whether every prediction of the section has been committed (figures may show)."""
        return all(p.prediction is None or p.state.used
                   for e in self.predictions for p in e.parts)

    @property
    def figures_hidden(self) -> bool:
        """Whether the figures start folded: they show the answer to an uncommitted prediction."""
        return bool(self.predictions) and not self.predictions_locked


@dataclass(frozen=True)
class ModulePage:
    """Everything the module page shows for one student."""

    enrollment: Enrollment
    sections: list[SectionView]
    exercises: list[ExerciseView] = field(default_factory=list)

    @property
    def course(self) -> Course:
        return self.enrollment.course


@dataclass(frozen=True)
class CourseProgress:
    course: Course
    sections: list[tuple[Section, SectionProgress]]
    role: str = Enrollment.Role.STUDENT  # the user's role in the course
    #: the exercises with a deadline for the user, soonest first, and whether each closed
    deadlines: list[tuple[Exercise, DeadlineStatus, bool]] = field(default_factory=list)

    @property
    def role_label(self) -> str:
        return Enrollment.Role(self.role).label

    @property
    def is_staff(self) -> bool:
        """Instructors and TAs, who get a link to the course's dashboard."""
        return self.role in (Enrollment.Role.INSTRUCTOR, Enrollment.Role.TA)


def _options(spec: dict[str, Any]) -> list[tuple[str, str]]:
    return [(o["key"], o["text"]) for o in public_spec(spec).get("options", [])]


def choice_texts(keys: str, options: Sequence[tuple[str, str]]) -> str:
    """Comma-separated option keys ("diagonal, uniform") as their options' texts, joined by
    "; " (a key the part does not have is shown as typed)."""
    texts = {key.lower(): text for key, text in options}
    return "; ".join(texts.get(k.strip().lower(), k.strip())
                     for k in re.split(r"[,;\s]+", keys) if k.strip())


def _display(value: Any, options: Sequence[tuple[str, str]]) -> str:
    texts = dict(options)
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, list):
        return "[" + ", ".join(_display(v, options) for v in value) + "]"
    return texts.get(str(value), str(value))


def _prediction(part: Part, history: list[Submission], runs: dict[int, LabRun],
                options: list[tuple[str, str]]) -> PredictionView | None:
    spec = part.spec
    if not spec.get("lab"):
        return None
    charged = [s for s in history if s.counts_as_attempt]
    if not charged:
        return PredictionView(lab_slug=spec["lab"], run=None, predicted="", measured=None)
    submission = charged[-1]
    run = runs.get(submission.pk)
    predicted = _display(submission.raw_answer.strip().lower(), options) if options \
        else submission.raw_answer.strip()
    measured = None
    if (run is not None and run.status == LabRun.Status.SUCCEEDED and run.result is not None
            and submission.outcome not in WAITING):
        measured = _display(measured_value(run.result, spec["measure"]), options)
    return PredictionView(lab_slug=spec["lab"], run=run, predicted=predicted, measured=measured)


def _part_view(part: Part, variant: Variant, history: list[Submission],
               runs: dict[int, LabRun], notice: str = "") -> PartView:
    spec = part.spec
    options = _options(spec)
    return PartView(
        id=part.pk, key=part.key, answer_type=part.answer_type,
        prompt=variant.prompt(part.prompt or ""), points=part.points,
        options=options, multiple=bool(spec.get("multiple")),
        state=attempt_state_from(history, max_attempts=part.exercise.max_attempts),
        history=history, prediction=_prediction(part, history, runs, options),
        answers=answer_views(history, penalty=part.exercise.penalty), notice=notice,
        shape=matrix_shape(spec, variant.params) if part.answer_type == "matrix" else None,
    )


def _progress(parts: Iterable[PartView]) -> SectionProgress:
    views = list(parts)
    return SectionProgress(
        total=len(views),
        answered=sum(1 for p in views if p.state.used),
        solved=sum(1 for p in views if p.state.solved),
    )


def module_page_for_student(*, user: User | AnonymousUser, course_slug: str,
                            notices: Mapping[int, str] | None = None) -> ModulePage:
    """The module of `course_slug` for a member: sections, figures, labs, exercises and the
    user's own submissions, attempts left and predictions, in a constant number of queries
    whatever the number of parts and answers. `notices`: {part id: why the last answer sent
    to it was refused}, shown at those parts.

    Raises Http404 when the user is not an active member of the course.
    """
    notices = notices or {}
    enrollment = enrollment_get(user=user, course_slug=course_slug)
    course = enrollment.course
    student = cast(User, user)
    # Students see the modules released by now; staff see every module of the course.
    shown = (course.module_ids() if enrollment.is_staff_role
             else course.released_module_ids(timezone.now()))
    sections = list(
        Section.objects.active().filter(module_id__in=shown)
        .order_by("module__number", "order")
        .prefetch_related(
            Prefetch("figures", queryset=Figure.objects.active().order_by("number")),
            Prefetch("labs", queryset=Lab.objects.active().order_by("order")),
            Prefetch("exercises", queryset=Exercise.objects.active().order_by("order")
                     .prefetch_related(Prefetch("parts", queryset=Part.objects.active()
                                                .order_by("order")))),
        )
    )
    history: dict[int, list[Submission]] = defaultdict(list)
    for submission in Submission.objects.filter(student=student, course=course).order_by(
        "created_at", "id"
    ):
        history[submission.part_id].append(submission)
    runs: dict[int, LabRun] = {}
    for run in LabRun.objects.filter(requester=student, course=course, submission__isnull=False) \
            .order_by("queued_at", "id"):
        runs[cast(int, run.submission_id)] = run  # the latest run of each prediction
    run_counts = dict(
        LabRun.objects.filter(requester=student, course=course).values_list("lab_id")
        .annotate(n=Count("id")).values_list("lab_id", "n")
    )

    statuses = deadline_statuses(student=student, course=course)
    now = timezone.now()
    section_views: list[SectionView] = []
    exercises: list[ExerciseView] = []
    for section in sections:
        predictions: list[ExerciseView] = []
        own: list[ExerciseView] = []
        for exercise in section.exercises.all():
            variant = variant_for(student=student, course=course, exercise=exercise)
            parts = list(exercise.parts.all())
            status = statuses.get(exercise.pk)
            closed = status is not None and status.closed(now)
            view = ExerciseView(
                exercise=exercise, prompt=variant.prompt(exercise.prompt),
                parts=[replace(_part_view(part, variant, history[part.pk], runs,
                                          notices.get(part.pk, "")), closed=closed)
                       for part in parts],
                numbers=variant_numbers(exercise=exercise, variant=variant,
                                        part_prompts=[p.prompt for p in parts]),
                module_numbers=variant.is_default,
                deadline=status, closed=closed,
            )
            (predictions if view.is_prediction else own).append(view)
        exercises.extend(own)
        section_views.append(SectionView(
            section=section, figures=list(section.figures.all()),
            labs=[LabView(lab=lab, runs=run_counts.get(lab.pk, 0)) for lab in section.labs.all()],
            predictions=predictions, exercises=own,
            progress=_progress(p for e in (*predictions, *own) for p in e.parts),
        ))
    exercises.sort(key=lambda e: (e.exercise.order, e.exercise.pk))
    return ModulePage(enrollment=enrollment, sections=section_views, exercises=exercises)


def course_progress_for_student(*, user: User | AnonymousUser) -> list[CourseProgress]:
    """Each active course of `user` with the user's role in it, its module's sections and
    the user's progress in each (parts answered and solved), in five queries whatever the
    number of courses, plus one per course the user studies in (their deadlines there, with
    their extensions and the course's policy; two when it has some)."""
    courses = list(course_list_for_user(user=user).annotate(user_role=F("enrollments__role")))
    runs: dict[int, set[int]] = defaultdict(set)  # course id -> the modules the user sees
    staff = {c.pk for c in courses
             if getattr(c, "user_role", Enrollment.Role.STUDENT) != Enrollment.Role.STUDENT}
    now = timezone.now()
    for course_id, run_module_id, release_at in CourseModule.objects.filter(
            course__in=courses).values_list("course_id", "module_id", "release_at"):
        if course_id in staff or release_at is None or release_at <= now:
            runs[course_id].add(run_module_id)  # students: released modules only
    module_ids = set().union(*runs.values()) if runs else set()
    sections = list(Section.objects.active().filter(module_id__in=module_ids)
                    .order_by("module__number", "order"))
    parts = list(
        Part.objects.active().filter(exercise__module_id__in=module_ids,
                                     exercise__archived_at__isnull=True)
        .values_list("pk", "exercise__section_id")
    )
    outcomes: dict[tuple[int, int], list[str]] = defaultdict(list)
    for course_id, part_id, outcome in Submission.objects.filter(
        student_id=user.pk, course__in=courses, counts_as_attempt=True
    ).values_list("course_id", "part_id", "outcome"):
        outcomes[(course_id, part_id)].append(outcome)

    result = []
    for course in courses:
        rows = []
        for section in (s for s in sections if s.module_id in runs[course.pk]):
            ids = [pk for pk, section_id in parts if section_id == section.pk]
            rows.append((section, SectionProgress(
                total=len(ids),
                answered=sum(1 for pk in ids if outcomes.get((course.pk, pk))),
                solved=sum(1 for pk in ids
                           if Submission.Outcome.CORRECT in outcomes.get((course.pk, pk), [])),
            )))
        role = getattr(course, "user_role", Enrollment.Role.STUDENT)
        dated: list[tuple[Exercise, DeadlineStatus, bool]] = []
        if role == Enrollment.Role.STUDENT:
            statuses = deadline_statuses(student=cast(User, user), course=course)
            titles = {e.pk: e for e in Exercise.objects.active().filter(pk__in=list(statuses))}
            now = timezone.now()
            dated = sorted(((titles[pk], st, st.closed(now)) for pk, st in statuses.items()
                            if pk in titles and titles[pk].module_id in runs[course.pk]),
                           key=lambda item: (item[2], item[1].due_at))
        result.append(CourseProgress(course=course, sections=rows, role=role, deadlines=dated))
    return result


@dataclass(frozen=True)
class StudentPart:
    """A part of the student's course with the student's variant parameters."""

    enrollment: Enrollment
    part: Part
    params: dict[str, Any]
    question: StudentQuestion | None = None  # the exercise and this part in the variant
    variant: Variant | None = None  # drawn once per request, passed down to grading

    @property
    def course(self) -> Course:
        return self.enrollment.course

    @property
    def part_prompt(self) -> str:
        """This part's prompt with the student's numbers."""
        return self.question.part_prompts[0][1] if self.question else ""


def part_for_student(*, user: User | AnonymousUser, course_slug: str, part_id: int) -> StudentPart:
    """An active part of the course's module with the user's variant; Http404 when the user
    is not an active member or the part is not in the course."""
    enrollment = enrollment_get(user=user, course_slug=course_slug)
    part = (
        Part.objects.active().select_related("exercise")
        .filter(pk=part_id, exercise__module_id__in=enrollment.course.module_ids(),
                exercise__archived_at__isnull=True)
        .first()
    )
    if part is None:
        raise Http404("No such question.")
    variant = variant_for(student=cast(User, user), course=enrollment.course, exercise=part.exercise)
    question = student_question(exercise=part.exercise, part_prompts=[(part.key, part.prompt)],
                                variant=variant)
    return StudentPart(enrollment=enrollment, part=part, params=variant.params, question=question,
                       variant=variant)


def part_view_for_student(*, user: User | AnonymousUser, target: StudentPart,
                          notice: str = "") -> PartView:
    """One part as the module page shows it, for the answered-in-place fragment: the user's
    answers to it, its attempts and, for a prediction, its lab run. One query (two for a
    prediction), with the part and variant already read by `part_for_student`."""
    part = target.part
    history = list(Submission.objects.filter(student_id=user.pk, course_id=target.course.pk,
                                             part_id=part.pk).order_by("created_at", "id"))
    runs: dict[int, LabRun] = {}
    if part.spec.get("lab"):
        for run in LabRun.objects.filter(requester_id=user.pk, course_id=target.course.pk,
                                         submission__in=[s.pk for s in history]) \
                .order_by("queued_at", "id"):
            runs[cast(int, run.submission_id)] = run
    variant = target.variant or variant_for(student=cast(User, user), course=target.course,
                                            exercise=part.exercise)
    return _part_view(part, variant, history, runs, notice)


@dataclass(frozen=True)
class SubmissionDetail:
    submission: Submission
    prompt: str
    run: LabRun | None
    answer: AnswerView | None = None  # its outcome and score, described
    options: list[tuple[str, str]] = field(default_factory=list)  # a choice part's

    @property
    def waiting(self) -> bool:
        return self.submission.outcome in WAITING

    @property
    def given(self) -> str:
        """What the student gave: a choice as its options' texts, else as typed."""
        raw = self.submission.raw_answer
        return choice_texts(raw, self.options) if self.options else raw

    @property
    def read_as(self) -> str:
        canonical = self.submission.canonical
        return choice_texts(canonical, self.options) if self.options and canonical else canonical


def submission_for_student(*, user: User | AnonymousUser, course_slug: str,
                           submission_id: int) -> SubmissionDetail:
    """The user's own submission in the course, its part's prompt in the user's variant, the
    lab run grading it (predictions) and its attempt number; Http404 for anyone else's
    submission (or none)."""
    if not user.is_authenticated:
        raise Http404("No such answer.")
    submission = (
        Submission.objects.select_related("part__exercise", "course")
        .filter(pk=submission_id, student_id=user.pk, course__slug=course_slug,
                course__enrollments__user_id=user.pk, course__enrollments__is_active=True)
        .first()
    )
    if submission is None:
        raise Http404("No such answer.")
    part = submission.part
    variant = variant_for(student=cast(User, user), course=submission.course, exercise=part.exercise)
    run = (LabRun.objects.filter(submission=submission, requester_id=user.pk)
           .order_by("-queued_at", "-id").first()) if part.spec.get("lab") else None
    # its attempt number, counted as submission_grade counts them (in id order)
    so_far = list(Submission.objects.filter(student_id=user.pk, course=submission.course,
                                            part=part, pk__lt=submission.pk)
                  .only("outcome", "counts_as_attempt", "score").order_by("id"))
    answer = answer_views([*so_far, submission], penalty=part.exercise.penalty)[-1]
    return SubmissionDetail(submission=submission, prompt=variant.prompt(part.prompt or ""),
                            run=run, answer=answer, options=_options(part.spec))
