"""The module page with a student's own work: sections, figures, labs, exercises with the
student's answers, attempts and predictions, and progress per section. Query counts do not
depend on how many attempts a student made or how many students a course has."""

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import cast, overload

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Prefetch
from django.utils import timezone

from courses.access import is_staff_role
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
from courses.selectors import member_enrollment
from grading.deadlines import DeadlineStatus, deadline_statuses
from grading.models import Submission
from grading.variant_assignment import variant_for
from grading.variant_numbers import VariantNumber, variant_numbers
from labs.models import LabRun
from student.part_views import PartView, part_view


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

    def course_module(self, module_slug: str) -> CourseModule | None:
        """The course's module of that slug, if the course runs it."""
        return next((cm for cm in self.course_modules if cm.module.slug == module_slug), None)

    def open_to_user(self, course_module: CourseModule, at: datetime) -> bool:
        """Whether the member may open the module: staff always, students once released."""
        return is_staff_role(self.enrollment.role) or course_module.released(at)


def course_plan_for_user(*, user: User | AnonymousUser, course_slug: str) -> CoursePlan | None:
    """The user's course and the modules it runs, in two queries; None when the user is not
    an active member."""
    enrollment = member_enrollment(user=user, course_slug=course_slug)
    if enrollment is None:
        return None
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
    def is_staff(self) -> bool:
        """Whether the user is staff of the course (the page links to its dashboard)."""
        return is_staff_role(self.enrollment.role)

    @property
    def module(self) -> Module | None:
        """The module the page is about (the course's first on its course page); None for a
        course running no module, which has no module page (see course.html)."""
        return self.course_module.module if self.course_module else self.course.module


def section_progress(parts: Iterable[PartView]) -> SectionProgress:
    """How many of `parts` there are, were answered (used an attempt) and were solved."""
    views = list(parts)
    return SectionProgress(
        total=len(views),
        answered=sum(1 for p in views if p.state.used),
        solved=sum(1 for p in views if p.state.solved),
    )


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


@overload
def module_page_for_student(*, user: User | AnonymousUser, plan: CoursePlan,
                            notices: Mapping[int, str] | None = None,
                            module_slug: None = None) -> ModulePage: ...
@overload
def module_page_for_student(*, user: User | AnonymousUser, plan: CoursePlan,
                            notices: Mapping[int, str] | None = None,
                            module_slug: str) -> ModulePage | None: ...
def module_page_for_student(*, user: User | AnonymousUser, plan: CoursePlan,
                            notices: Mapping[int, str] | None = None,
                            module_slug: str | None = None) -> ModulePage | None:
    """The modules of the member's course (`plan`, from `course_plan_for_user`) open to them
    (students: those released by now; staff: all), or with `module_slug` that one module
    only: sections, figures, labs, exercises and the user's own submissions, attempts left
    and predictions, in a constant number of queries whatever the number of modules, parts
    and answers. `notices`: {part id: why the
    last answer sent to it was refused}, shown at those parts.

    None when the course does not run `module_slug` or a student asks for a module not
    released yet (the caller tells which from the plan).
    """
    notices = notices or {}
    enrollment = plan.enrollment
    course = enrollment.course
    student = cast(User, user)
    now = timezone.now()
    shown: CourseModule | None = None
    if module_slug is not None:
        shown = plan.course_module(module_slug)
        if shown is None or not plan.open_to_user(shown, now):
            return None
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
                parts=[replace(part_view(part, variant, history[part.pk], runs,
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
            progress=section_progress(p for e in (*predictions, *own) for p in e.parts),
        ))
    exercises.sort(key=lambda e: (e.exercise.order, e.exercise.pk))
    return ModulePage(enrollment=enrollment, sections=section_views, exercises=exercises,
                      course_module=shown,
                      nav=_module_nav(plan, shown, now) if shown and plan.several else None)
