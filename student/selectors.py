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
from datetime import datetime
from functools import cached_property
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, F, Prefetch
from django.http import Http404
from django.utils import timezone

from courses.models import (
    Course,
    CourseModule,
    Enrollment,
    Exercise,
    Figure,
    Lab,
    Module,
    Part,
    Section,
)
from courses.page_links import CourseLinks, course_links_from, course_url
from courses.selectors import course_list_for_user, enrollment_get
from grading.answer_display import AnswerView, answer_views
from grading.answer_statements import ExerciseDates
from grading.deadlines import DeadlineStatus, deadline_statuses
from grading.models import DeadlinePolicy, Submission
from grading.preview import PREVIEWED_TYPES
from grading.public_spec import matrix_shape, public_spec
from grading.services import AttemptState, attempt_state_from
from grading.variant_assignment import Variant, variant_for, variant_of
from grading.variant_numbers import (
    StudentQuestion,
    VariantNumber,
    student_question,
    variant_numbers,
)
from labs.models import LabRun
from labs.predictions import measured_value
from student.due_dates import ModuleDueDates, due_dates_by_module
from student.part_statement import enrolled_part_get, part_history

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
    def prediction_due(self) -> bool:
        """Whether this is a prediction not yet committed (its section's figures stay folded)."""
        return self.prediction is not None and not self.state.used

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
    def state_sentence(self) -> str:
        """The part's state in one sentence, the attempts counted in it: answerable ("Attempts
        used: 1 of 5 (4 left)."), solved, closed by its deadline, waiting to be graded, or out
        of attempts; never two states at once (a closed part does not count what is left)."""
        state = self.state
        used = (f"attempts used: {state.used} of {state.limit}" if state.limit
                else f"attempts used: {state.used}")
        if self.can_answer or self.prediction:
            if not state.limit:
                return f"Attempts used: {state.used} (no limit)."
            left = f" ({state.left} left)" if self.can_answer else ""
            return f"A{used[1:]}{left}."
        if state.solved:
            return f"Solved ({used})."
        if self.waiting:
            return f"Your answer is saved and waiting to be graded ({used})."
        if self.closed:
            return f"Closed ({used})."
        return f"No attempts left ({used})."

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
        return not any(p.prediction_due for e in self.predictions for p in e.parts)

    @property
    def figures_hidden(self) -> bool:
        """Whether the figures start folded: they show the answer to an uncommitted prediction."""
        return bool(self.predictions) and not self.predictions_locked


@dataclass(frozen=True)
class CoursePlan:
    """A member's course with the modules it runs, in the course's order (each with its
    module), and the links into its pages."""

    enrollment: Enrollment
    course_modules: list[CourseModule]

    @property
    def course(self) -> Course:
        return self.enrollment.course

    @property
    def several(self) -> bool:
        """Whether the course runs several modules (a page each, and an overview)."""
        return len(self.course_modules) > 1

    @property
    def links(self) -> CourseLinks:
        return course_links_from(self.course.slug, self.course_modules)

    def open_to_user(self, course_module: CourseModule, at: datetime) -> bool:
        """Whether the member may open the module: staff always, students once released."""
        return self.enrollment.is_staff_role or course_module.released(at)


def course_plan_for_user(*, user: User | AnonymousUser, course_slug: str) -> CoursePlan:
    """The user's course and the modules it runs, in two queries; Http404 when the user is
    not an active member."""
    enrollment = enrollment_get(user=user, course_slug=course_slug)
    rows = list(CourseModule.objects.filter(course_id=enrollment.course_id)
                .select_related("module").order_by("order", "pk"))
    return CoursePlan(enrollment=enrollment, course_modules=rows)


@dataclass(frozen=True)
class ModuleNav:
    """The way between the module pages of a course of several modules: the previous and
    next module (a URL, or None when it is not open to the user yet) and the course page."""

    course_url: str
    previous: CourseModule | None = None
    previous_url: str | None = None
    next: CourseModule | None = None
    next_url: str | None = None


@dataclass(frozen=True)
class ModulePage:
    """Everything the module page shows for one student."""

    enrollment: Enrollment
    sections: list[SectionView]
    exercises: list[ExerciseView] = field(default_factory=list)
    #: the module shown on its own page (None: the course page of a course of one module,
    #: showing every module open to the user)
    course_module: CourseModule | None = None
    nav: ModuleNav | None = None  # on the module pages of a course of several modules

    @property
    def course(self) -> Course:
        return self.enrollment.course

    @property
    def module(self) -> Module:
        """The module the page is about (the course's first on its course page)."""
        module = self.course_module.module if self.course_module else self.course.module
        if module is None:  # a course running no module has no module page (see course.html)
            raise Http404("This course runs no module yet.")
        return module


@dataclass(frozen=True)
class ModuleProgress:
    """One module of a course as the course's card lists it for the user."""

    course_module: CourseModule
    #: the module's page, or None while it is not open to the user (a student, before its
    #: release date)
    url: str | None
    progress: SectionProgress
    sections: list[tuple[Section, SectionProgress]]
    #: the user's soonest deadline in the module that has not closed and is not the module's
    #: due date (an exercise's own deadline, an extension): exercise and status
    next_deadline: tuple[Exercise, DeadlineStatus] | None = None
    released: bool = True  # False before its release date (staff may still open it)

    @property
    def module(self) -> Module:
        return self.course_module.module

    @property
    def is_open(self) -> bool:
        return self.url is not None

    @property
    def opens_at(self) -> datetime | None:
        return self.course_module.release_at

    @property
    def due_at(self) -> datetime | None:
        """The module's default due date in the course (CourseModule.due_at)."""
        return self.course_module.due_at

    @property
    def weight(self) -> float:
        return self.course_module.weight


@dataclass(frozen=True)
class CourseProgress:
    course: Course
    sections: list[tuple[Section, SectionProgress]]  # of every module open to the user
    role: str = Enrollment.Role.STUDENT  # the user's role in the course
    #: the exercises with a deadline for the user (for staff, the class's), soonest first:
    #: exercise, status, whether it closed, and the link to it on its module's page
    deadlines: list[tuple[Exercise, DeadlineStatus, bool, str]] = field(default_factory=list)
    #: the modules the course runs, in order
    modules: list[ModuleProgress] = field(default_factory=list)
    #: the course's deadline policy (its time zone shows the modules' dates)
    policy: DeadlinePolicy | None = None

    @property
    def role_label(self) -> str:
        return Enrollment.Role(self.role).label

    @property
    def is_staff(self) -> bool:
        """Instructors and TAs, who get a link to the course's dashboard."""
        return self.role in (Enrollment.Role.INSTRUCTOR, Enrollment.Role.TA)

    @property
    def several(self) -> bool:
        return len(self.modules) > 1

    @property
    def due_dates(self) -> list[ModuleDueDates]:
        """`deadlines` grouped by module and kept short (student.due_dates)."""
        return due_dates_by_module(dated=self.deadlines,
                                   course_modules=[m.course_module for m in self.modules])

    @property
    def unequal_weights(self) -> bool:
        """Whether the course weighs its modules differently (the weights are then shown)."""
        return len({m.weight for m in self.modules}) > 1


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


def _opens_notice(course_module: CourseModule) -> str:
    when = course_module.release_at
    return f"This module opens on {when:%d %B %Y}." if when else "This module is not open yet."


def _module_nav(plan: CoursePlan, shown: CourseModule, at: datetime) -> ModuleNav:
    rows = plan.course_modules
    index = next(i for i, cm in enumerate(rows) if cm.pk == shown.pk)
    links = plan.links
    previous = rows[index - 1] if index > 0 else None
    following = rows[index + 1] if index + 1 < len(rows) else None

    def url(cm: CourseModule | None) -> str | None:
        return links.module(cm.module_id) if cm and plan.open_to_user(cm, at) else None
    return ModuleNav(course_url=course_url(plan.course.slug), previous=previous,
                     previous_url=url(previous), next=following, next_url=url(following))


def module_page_for_student(*, user: User | AnonymousUser, course_slug: str,
                            notices: Mapping[int, str] | None = None,
                            module_slug: str | None = None,
                            plan: CoursePlan | None = None) -> ModulePage:
    """The modules of `course_slug` open to a member (students: those released by now; staff:
    all), or with `module_slug` that one module only: sections, figures, labs, exercises and
    the user's own submissions, attempts left and predictions, in a constant number of
    queries whatever the number of modules, parts and answers. `notices`: {part id: why the
    last answer sent to it was refused}, shown at those parts. `plan`: the course's
    `course_plan_for_user`, when the caller has read it (two queries fewer).

    Raises Http404 when the user is not an active member of the course, when the course
    does not run `module_slug`, or when a student asks for a module not released yet.
    """
    notices = notices or {}
    plan = plan or course_plan_for_user(user=user, course_slug=course_slug)
    enrollment = plan.enrollment
    course = enrollment.course
    student = cast(User, user)
    now = timezone.now()
    shown: CourseModule | None = None
    if module_slug is not None:
        shown = next((cm for cm in plan.course_modules if cm.module.slug == module_slug), None)
        if shown is None:
            raise Http404("No such module in this course.")
        if not plan.open_to_user(shown, now):
            raise Http404(_opens_notice(shown))
        visible = [shown]
    else:
        visible = [cm for cm in plan.course_modules if plan.open_to_user(cm, now)]
    position = {cm.module_id: i for i, cm in enumerate(visible)}
    sections = sorted(
        Section.objects.active().filter(module_id__in=list(position))
        .order_by("order")
        .prefetch_related(
            Prefetch("figures", queryset=Figure.objects.active().order_by("number")),
            Prefetch("labs", queryset=Lab.objects.active().order_by("order")),
            Prefetch("exercises", queryset=Exercise.objects.active().order_by("order")
                     .prefetch_related(Prefetch("parts", queryset=Part.objects.active()
                                                .order_by("order")))),
        ),
        key=lambda section: position[section.module_id])  # in the course's module order
    own_work = Submission.objects.filter(student=student, course=course)
    if shown is not None:
        own_work = own_work.filter(part__exercise__module_id=shown.module_id)
    history: dict[int, list[Submission]] = defaultdict(list)
    for submission in own_work.order_by("created_at", "id"):
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
    return ModulePage(enrollment=enrollment, sections=section_views, exercises=exercises,
                      course_module=shown,
                      nav=_module_nav(plan, shown, now) if shown and plan.several else None)


def course_progress_for_student(*, user: User | AnonymousUser,
                                course_slug: str | None = None,
                                plan: CoursePlan | None = None) -> list[CourseProgress]:
    """Each active course of `user` (or with `course_slug` that course only) with the user's
    role in it, the modules it runs in order (each with its progress, due date, the user's
    soonest open deadline in it and its page, or none for a student before its release), the
    sections of the modules open to the user and the user's progress in each (parts
    answered and solved). Five queries whatever the number of courses and modules, plus one
    per course (the user's deadlines there, with their extensions and the course's policy;
    two when it has some; for staff the class's dates, as its students see them).

    `plan`: the user's course and its modules as the caller read them
    (`course_plan_for_user`): that course only, without reading it and its modules again
    (its policy comes with the deadlines, else one query)."""
    if plan is not None:
        courses = [plan.course]
        roles = {plan.course.pk: plan.enrollment.role}
        runs: dict[int, list[CourseModule]] = defaultdict(list, {plan.course.pk: plan.course_modules})
    else:
        mine = course_list_for_user(user=user).select_related("deadline_policy")
        if course_slug is not None:
            mine = mine.filter(slug=course_slug)
        courses = list(mine.annotate(user_role=F("enrollments__role")))
        roles = {c.pk: getattr(c, "user_role", Enrollment.Role.STUDENT) for c in courses}
        runs = defaultdict(list)  # course id -> its modules, in order
        for link in CourseModule.objects.filter(course__in=courses).select_related("module") \
                .order_by("course_id", "order", "pk"):
            runs[link.course_id].append(link)
    staff = {pk for pk, role in roles.items() if role != Enrollment.Role.STUDENT}
    now = timezone.now()
    open_ids = {cm.module_id for course in courses for cm in runs[course.pk]
                if course.pk in staff or cm.released(now)}
    sections = list(Section.objects.active().filter(module_id__in=open_ids)
                    .order_by("module__number", "order"))
    parts = list(
        Part.objects.active().filter(exercise__module_id__in=open_ids,
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
        role = roles[course.pk]
        links = course_links_from(course.slug, runs[course.pk])
        open_here = {cm.module_id for cm in runs[course.pk]
                     if course.pk in staff or cm.released(now)}

        def counted(section: Section, course: Course = course) -> SectionProgress:
            ids = [pk for pk, section_id in parts if section_id == section.pk]
            return SectionProgress(
                total=len(ids),
                answered=sum(1 for pk in ids if outcomes.get((course.pk, pk))),
                solved=sum(1 for pk in ids
                           if Submission.Outcome.CORRECT in outcomes.get((course.pk, pk), [])))

        dated: list[tuple[Exercise, DeadlineStatus, bool, str]] = []
        # Staff read the class's dates (they have no extensions): the same as students see.
        statuses = deadline_statuses(student=cast(User, user), course=course)
        titles = {e.pk: e for e in Exercise.objects.active().filter(pk__in=list(statuses))} \
            if statuses else {}
        dated = sorted(((titles[pk], st, st.closed(now),
                         links.exercise(titles[pk].module_id, titles[pk].slug))
                        for pk, st in statuses.items()
                        if pk in titles and titles[pk].module_id in open_here),
                       key=lambda item: (item[2], item[1].due_at))
        policy = _course_policy(course, statuses, read=plan is not None)
        rows: list[tuple[Section, SectionProgress]] = []
        modules: list[ModuleProgress] = []
        for cm in runs[course.pk]:
            is_open = cm.module_id in open_here
            own = [(section, counted(section)) for section in sections
                   if section.module_id == cm.module_id] if is_open else []
            rows.extend(own)
            # the module's own due date is shown already: an earlier or later date is news
            soonest = next(((e, st) for e, st, closed, _ in dated
                            if not closed and e.module_id == cm.module_id
                            and st.due_at != cm.due_at), None)
            modules.append(ModuleProgress(
                course_module=cm, url=links.module(cm.module_id) if is_open else None,
                progress=SectionProgress(total=sum(p.total for _, p in own),
                                         answered=sum(p.answered for _, p in own),
                                         solved=sum(p.solved for _, p in own)),
                sections=own, next_deadline=soonest, released=cm.released(now)))
        result.append(CourseProgress(course=course, sections=rows, role=role, deadlines=dated,
                                     modules=modules, policy=policy))
    return result


def _course_policy(course: Course, statuses: dict[int, DeadlineStatus], *,
                   read: bool) -> DeadlinePolicy:
    """The course's deadline policy: the one the deadlines came with, else the course's
    (`read`: one query; else loaded with the course), else the defaults."""
    if statuses:
        return next(iter(statuses.values())).policy
    found = DeadlinePolicy.objects.filter(course=course).first() if read \
        else getattr(course, "deadline_policy", None)
    return found or DeadlinePolicy(course=course)


@dataclass(frozen=True)
class StudentPart:
    """A part of the student's course with the student's variant parameters."""

    enrollment: Enrollment
    part: Part
    params: dict[str, Any]
    variant: Variant | None = None  # drawn once per request, passed down to grading
    dates: ExerciseDates | None = None  # the exercise's dates in the course, read with it

    @property
    def course(self) -> Course:
        return self.enrollment.course

    @cached_property
    def question(self) -> StudentQuestion | None:
        """The exercise and this part in the student's variant, worked out on first use (an
        answer and a live preview never show it; the no-JavaScript preview page does)."""
        if self.variant is None:
            return None
        return student_question(exercise=self.part.exercise,
                                part_prompts=[(self.part.key, self.part.prompt)],
                                variant=self.variant)

    @property
    def part_prompt(self) -> str:
        """This part's prompt with the student's numbers."""
        return self.question.part_prompts[0][1] if self.question else ""


def part_for_student(*, user: User | AnonymousUser, course_slug: str, part_id: int) -> StudentPart:
    """An active part of the course's module with the user's variant; Http404 when the user
    is not an active member or the part is not in the course."""
    if not user.is_authenticated:
        raise Http404("No such course.")
    found = enrolled_part_get(user_id=user.pk, course_slug=course_slug, part_id=part_id)
    enrollment, part = found.enrollment, found.part
    if enrollment is None:
        raise Http404("No such course.")
    if part is None:
        raise Http404("No such question.")
    variant = variant_of(course=enrollment.course, exercise=part.exercise, student_id=user.pk,
                         default=found.module_numbers)
    return StudentPart(enrollment=enrollment, part=part, params=variant.params, variant=variant,
                       dates=found.dates)


def part_view_for_student(*, user: User | AnonymousUser, target: StudentPart,
                          notice: str = "") -> PartView:
    """One part as the module page shows it, for the answered-in-place fragment: the user's
    answers to it, its attempts and, for a prediction, its lab run. One query (two for a
    prediction), with the part and variant already read by `part_for_student`."""
    part = target.part
    history = part_history(student_id=cast(User, user).pk, course_id=target.course.pk,
                           part_id=part.pk)
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
