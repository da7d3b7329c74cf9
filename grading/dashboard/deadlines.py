"""Deadlines: when an exercise closes for a student, counting any extension granted to them."""

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User

from courses.models import Course, Exercise
from grading.models import Deadline, DeadlineExtension


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
