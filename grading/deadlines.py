"""Deadlines: when an exercise is due for a student (counting any extension granted to them),
when it closes (the course's late window), what a late answer costs, and setting them
(instructors; extensions also TAs where the course allows it)."""

import copy
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Subquery
from django.utils import timezone

from courses.access import STAFF_ROLES
from courses.content_reads import course_modules, module_exercise_ids
from courses.models import Course, CourseModule, Enrollment, Exercise, Module
from grading.course_dates import course_deadlines, course_policy
from grading.events import grade_changed_record
from grading.models import Deadline, DeadlineExtension, DeadlinePolicy
from grading.staff import MAX_REASON, StaffActionRefused, course_exercise, course_student, require_role


def deadline_for(*, student: User, course: Course, exercise: Exercise) -> datetime | None:
    """The student's deadline for the exercise (None: no deadline), in at most two queries.

    An extension moves the deadline later for that student, never earlier.
    """
    deadline = Deadline.objects.filter(course=course, exercise=exercise).values_list(
        "due_at", flat=True).first()
    if deadline is None:
        return None
    extended = DeadlineExtension.objects.filter(
        course=course, exercise=exercise, student=student).values_list("due_at", flat=True).first()
    return max(deadline, extended) if extended is not None else deadline


def deadline_policy_of(*, course: Course) -> DeadlinePolicy:
    """The course's deadline policy (an unsaved default one when none was set); no query
    when the content cache has it."""
    return _policy_copy(course)


def policy_zone(policy: DeadlinePolicy) -> ZoneInfo:
    """The policy's time zone (UTC for a name this machine does not know)."""
    try:
        return ZoneInfo(policy.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


@dataclass(frozen=True)
class DeadlineStatus:
    """One student's deadline on one exercise, and what it means at a moment."""

    due_at: datetime | None  # the student's: the course's, or their extension's when later
    course_due_at: datetime | None
    extension_reason: str | None  # None: no extension applies
    policy: DeadlinePolicy

    @property
    def extended(self) -> bool:
        return self.extension_reason is not None

    @property
    def zone(self) -> ZoneInfo:
        return policy_zone(self.policy)

    @property
    def closes_at(self) -> datetime | None:
        """When answers stop being taken: the due date, or the end of the late window."""
        if self.due_at is None:
            return None
        if self.policy.late == DeadlinePolicy.Late.REFUSED:
            return self.due_at
        return self.due_at + timedelta(days=self.policy.late_days)

    def closed(self, at: datetime) -> bool:
        closes = self.closes_at
        return closes is not None and at > closes

    def late(self, at: datetime) -> bool:
        return self.due_at is not None and at > self.due_at

    def days_late(self, at: datetime) -> int:
        """Whole days late, a started day counting as one (0 on time)."""
        if self.due_at is None or at <= self.due_at:
            return 0
        return math.ceil((at - self.due_at) / timedelta(days=1))

    def late_factor(self, at: datetime) -> float:
        """What a score submitted at `at` is multiplied by (1.0 on time)."""
        if not self.late(at):
            return 1.0
        share = max(0.0, min(1.0, self.policy.late_share))
        if self.policy.late == DeadlinePolicy.Late.PER_DAY:
            return max(0.0, 1.0 - share * self.days_late(at))
        if self.policy.late == DeadlinePolicy.Late.FLAT:
            return 1.0 - share
        return 0.0

    def late_note(self, at: datetime) -> str:
        """The late penalty in words, for the score explanation ("" on time)."""
        if not self.late(at):
            return ""
        days = self.days_late(at)
        percent = round(100 * (1.0 - self.late_factor(at)))
        when = f"{days} day{'s' if days != 1 else ''} late"
        if self.policy.late == DeadlinePolicy.Late.PER_DAY:
            share = round(100 * self.policy.late_share)
            return f"Submitted {when}: {percent}% off the score ({share}% per day late)."
        return f"Submitted {when}: {percent}% off the score (the course's late penalty)."

    def local(self, value: datetime | None) -> datetime | None:
        return None if value is None else value.astimezone(self.zone)


def deadline_statuses(*, student: User, course: Course) -> dict[int, DeadlineStatus]:
    """The student's deadline on every exercise of the course that has one, by exercise id
    (exercises without a deadline are absent): its own due date in the course, else its
    module's default due date in the course (as `deadline_status` reads them), each with the
    student's extension. The dates, the modules' exercises and the policy come from the
    content cache; the student's extensions are one query (none without a deadline)."""
    due: dict[int, datetime] = {}
    for module_id, link in course_modules(course_id=course.pk).items():
        if link.due_at is not None:
            due.update(dict.fromkeys(module_exercise_ids(module_id=module_id), link.due_at))
    due.update(course_deadlines(course_id=course.pk))
    if not due:
        return {}
    extensions = {exercise_id: (due_at, reason) for exercise_id, due_at, reason
                  in DeadlineExtension.objects.filter(course=course, student=student)
                  .values_list("exercise_id", "due_at", "reason")}
    policy = _policy_copy(course)
    statuses = {}
    for exercise_id, course_due in due.items():
        extension_due, reason = extensions.get(exercise_id, (None, None))
        later = extension_due is not None and extension_due > course_due
        statuses[exercise_id] = DeadlineStatus(
            due_at=extension_due if later and extension_due else course_due,
            course_due_at=course_due, extension_reason=reason if later else None,
            policy=policy)
    return statuses


def _policy_copy(course: Course) -> DeadlinePolicy:
    """The course's policy (a default one when none was set), from the content cache, as an
    instance of its own whose `course` is `course` (no query)."""
    cached = course_policy(course_id=course.pk)
    policy = copy.copy(cached) if cached is not None else DeadlinePolicy(course=course)
    policy.course = course
    return policy


#: `deadline_status(due=...)` not given: the exercise's due date in the course is read.
UNREAD = object()


def deadline_status(*, student: User, course: Course, exercise: Exercise,
                    due: datetime | object | None = UNREAD) -> DeadlineStatus | None:
    """`deadline_statuses` for one exercise (None: it has no deadline), the module's default
    due date in the course standing in for an exercise without its own. `due`: that due date
    (the exercise's own deadline, else its module's; None for none) when the caller has read
    it. No query without a deadline when `due` is given, one when it is read here (the
    exercise's own beside the module's); two more when there is a deadline."""
    if due is not UNREAD:
        course_due = due if isinstance(due, datetime) else None
    else:
        own = Deadline.objects.filter(course=course, exercise=exercise).values("due_at")[:1]
        row = CourseModule.objects.filter(course=course, module_id=exercise.module_id).annotate(
            own_due=Subquery(own)).values_list("own_due", "due_at").first()
        if row is None:  # the course does not run the module: only an exercise's own deadline
            course_due = Deadline.objects.filter(course=course, exercise=exercise).values_list(
                "due_at", flat=True).first()
        else:
            course_due = row[0] if row[0] is not None else row[1]
    if course_due is None:
        return None
    extension = DeadlineExtension.objects.filter(course=course, exercise=exercise,
                                                 student=student).first()
    later = extension is not None and extension.due_at > course_due
    return DeadlineStatus(due_at=extension.due_at if later and extension else course_due,
                          course_due_at=course_due,
                          extension_reason=extension.reason if later and extension else None,
                          policy=deadline_policy_of(course=course))


@dataclass(frozen=True)
class ExerciseDeadline:
    exercise: Exercise
    deadline: Deadline | None  # the exercise's own deadline in the course
    module_due: datetime | None = None  # its module's default due date in the course

    @property
    def due_at(self) -> datetime | None:
        """When the class must answer: its own deadline, else its module's due date."""
        return self.deadline.due_at if self.deadline is not None else self.module_due

    @property
    def from_module(self) -> bool:
        """Whether the due date is the module's (the exercise has none of its own)."""
        return self.deadline is None and self.module_due is not None


@dataclass(frozen=True)
class ModuleDeadlines:
    """One module of the course with its due date there and its exercises' deadlines."""

    course_module: CourseModule
    exercises: list[ExerciseDeadline]

    @property
    def module(self) -> Module:
        return self.course_module.module


@dataclass(frozen=True)
class DeadlineList:
    modules: list[ModuleDeadlines]  # in the course's order
    extensions: list[DeadlineExtension]
    policy: DeadlinePolicy

    @property
    def exercises(self) -> list[ExerciseDeadline]:
        """Every exercise of the course, module by module."""
        return [e for m in self.modules for e in m.exercises]

    @property
    def several(self) -> bool:
        return len(self.modules) > 1

    @property
    def zone(self) -> ZoneInfo:
        return policy_zone(self.policy)

    @property
    def late_choices(self) -> list[tuple[str, str]]:
        return [(value, str(label)) for value, label in DeadlinePolicy.Late.choices]


def deadline_list(*, course: Course) -> DeadlineList:
    """The course's modules in order, each with its due date in the course and its exercises
    with their own deadlines; every extension granted and the course's deadline policy. Five
    queries."""
    deadlines = {d.exercise_id: d for d in Deadline.objects.filter(course=course)}
    links = list(CourseModule.objects.filter(course=course).select_related("module")
                 .order_by("order", "pk"))
    by_module: dict[int, list[Exercise]] = {link.module_id: [] for link in links}
    for exercise in Exercise.objects.active().filter(module_id__in=list(by_module)).order_by(
            "order", "pk"):
        by_module[exercise.module_id].append(exercise)
    extensions = list(
        DeadlineExtension.objects.filter(course=course)
        .select_related("exercise__module", "student", "granted_by")
        .order_by("exercise__module__number", "exercise__order", "due_at")
    )
    return DeadlineList(
        modules=[ModuleDeadlines(course_module=link, exercises=[
            ExerciseDeadline(exercise=e, deadline=deadlines.get(e.pk), module_due=link.due_at)
            for e in by_module[link.module_id]]) for link in links],
        extensions=extensions,
        policy=deadline_policy_of(course=course),
    )


def _aware(due_at: datetime) -> datetime:
    if timezone.is_naive(due_at):
        raise StaffActionRefused("The date needs a time zone.")
    return due_at


@transaction.atomic(durable=True)
def deadline_set(*, course: Course, exercise_id: int, due_at: datetime | None,
                 by: User) -> Deadline | None:
    """Set (or with `due_at` None remove) the exercise's deadline in the course.

    Raises PermissionDenied unless `by` is an instructor of the course (TAs cannot change
    deadlines), Http404 for an exercise not in the course.
    """
    require_role(course, by, (Enrollment.Role.INSTRUCTOR,))
    exercise = course_exercise(course, exercise_id)
    if due_at is None:
        Deadline.objects.filter(course=course, exercise=exercise).delete()
        return None
    deadline, _ = Deadline.objects.update_or_create(
        course=course, exercise=exercise, defaults={"due_at": _aware(due_at), "updated_by": by})
    return deadline


@transaction.atomic(durable=True)
def extension_set(*, course: Course, exercise_id: int, student_id: int,
                  due_at: datetime | None, reason: str, by: User) -> DeadlineExtension | None:
    """Give one student a later deadline on an exercise (`due_at` None withdraws it).

    An extension never shortens the course deadline. Raises PermissionDenied unless `by` is
    an instructor of the course (or one of its TAs, where the course lets TAs grant
    extensions), Http404 for a student or exercise not in the course.
    """
    require_role(course, by, extension_granters(course=course))
    exercise = course_exercise(course, exercise_id)
    student = course_student(course, student_id)
    extension: DeadlineExtension | None = None
    if due_at is None:
        DeadlineExtension.objects.filter(course=course, exercise=exercise,
                                         student=student).delete()
    else:
        extension, _ = DeadlineExtension.objects.update_or_create(
            course=course, exercise=exercise, student=student,
            defaults={"due_at": _aware(due_at), "reason": reason.strip()[:MAX_REASON],
                      "granted_by": by})
    # Whether the exercise is open to the student changed: the LMS hears of it.
    grade_changed_record(course_id=course.pk, student_id=student.pk, exercise_id=exercise.pk,
                         reason="extension")
    return extension


def extension_granters(*, course: Course) -> tuple[str, ...]:
    """The roles that may grant extensions in the course (one query)."""
    if deadline_policy_of(course=course).tas_grant_extensions:
        return STAFF_ROLES
    return (Enrollment.Role.INSTRUCTOR,)


@transaction.atomic(durable=True)
def deadline_set_module(*, course: Course, due_at: datetime | None, by: User,
                        module_id: int | None = None) -> int:
    """Set (or with `due_at` None remove) one due date for every active exercise of the
    course's module `module_id`; returns how many exercises it applies to. `module_id` may be
    left out only in a course of one module. Instructors only; StaffActionRefused for a
    module the course does not run, or none chosen in a course of several."""
    require_role(course, by, (Enrollment.Role.INSTRUCTOR,))
    runs = list(CourseModule.objects.filter(course=course).values_list("module_id", flat=True))
    if module_id is None:
        if len(runs) != 1:
            raise StaffActionRefused("Choose the module whose exercises are due on this date.")
        module_id = runs[0]
    if module_id not in runs:
        raise StaffActionRefused("The course does not run that module.")
    exercises = list(Exercise.objects.active().filter(module_id=module_id))
    if due_at is None:
        Deadline.objects.filter(course=course, exercise__in=exercises).delete()
        return len(exercises)
    for exercise in exercises:
        Deadline.objects.update_or_create(course=course, exercise=exercise,
                                          defaults={"due_at": _aware(due_at), "updated_by": by})
    return len(exercises)


LATE_CHOICES = tuple(DeadlinePolicy.Late.values)


@transaction.atomic(durable=True)
def deadline_policy_set(*, course: Course, time_zone: str, late: str, late_share: float,
                        late_days: int, tas_grant_extensions: bool, by: User) -> DeadlinePolicy:
    """Set the course's deadline policy. Raises StaffActionRefused for an unknown time zone,
    a late rule not in LATE_CHOICES, a share outside 0..1 or negative days; PermissionDenied
    unless `by` is an instructor of the course."""
    require_role(course, by, (Enrollment.Role.INSTRUCTOR,))
    zone = time_zone.strip()
    if zone not in available_timezones():
        raise StaffActionRefused(f"Unknown time zone {zone!r}: use a name such as Europe/London.")
    if late not in LATE_CHOICES:
        raise StaffActionRefused(f"Late answers are one of: {', '.join(LATE_CHOICES)}.")
    if not 0.0 <= late_share <= 1.0:
        raise StaffActionRefused("The late penalty is a share between 0 and 1 (0.1 is 10%).")
    if late_days < 0 or late_days > 365:
        raise StaffActionRefused("Late answers are taken for 0 to 365 days.")
    policy, _ = DeadlinePolicy.objects.update_or_create(course=course, defaults={
        "time_zone": zone, "late": late, "late_share": late_share, "late_days": late_days,
        "tas_grant_extensions": tas_grant_extensions})
    return policy
