"""Deadlines: when an exercise closes for a student, counting any extension granted to them,
and setting them (instructors only)."""

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from courses.models import Course, Enrollment, Exercise
from grading.events import grade_changed_record
from grading.models import Deadline, DeadlineExtension
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


@dataclass(frozen=True)
class ExerciseDeadline:
    exercise: Exercise
    deadline: Deadline | None


@dataclass(frozen=True)
class DeadlineList:
    exercises: list[ExerciseDeadline]
    extensions: list[DeadlineExtension]


def deadline_list(*, course: Course) -> DeadlineList:
    """The course's exercises with their deadlines, and every extension granted. Three
    queries."""
    deadlines = {d.exercise_id: d for d in Deadline.objects.filter(course=course)}
    exercises = Exercise.objects.active().filter(module_id=course.module_id).order_by("order")
    extensions = list(
        DeadlineExtension.objects.filter(course=course)
        .select_related("exercise", "student", "granted_by").order_by("exercise__order", "due_at")
    )
    return DeadlineList(
        exercises=[ExerciseDeadline(exercise=e, deadline=deadlines.get(e.pk)) for e in exercises],
        extensions=extensions,
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
    an instructor of the course, Http404 for a student or exercise not in the course.
    """
    require_role(course, by, (Enrollment.Role.INSTRUCTOR,))
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
