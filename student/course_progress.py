"""A user's courses as their cards list them: role, the modules run in order with progress,
due dates and the next deadline, and progress per section of the modules open to the user."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import cast

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F
from django.utils import timezone

from courses.access import is_staff_role
from courses.models import Course, CourseModule, Enrollment, Exercise, Module, Part, Section
from courses.page_links import course_links_from
from courses.selectors import course_list_for_user
from grading.deadlines import DeadlineStatus, deadline_statuses
from grading.models import DeadlinePolicy, Submission
from student.due_dates import ModuleDueDates, due_dates_by_module
from student.module_page import CoursePlan, SectionProgress


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
        return str(Enrollment.Role(self.role).label)

    @property
    def is_staff(self) -> bool:
        """Instructors and TAs, who get a link to the course's dashboard."""
        return is_staff_role(self.role)

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
    staff = {pk for pk, role in roles.items() if is_staff_role(role)}
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
