"""What course staff may change, and the lookups their changes share.

Reviews, grade overrides, deadlines and extensions are written by people at a screen (the
instructor pages, later an LMS): each service checks the acting user's role in the course
itself, validates its input and raises StaffActionRefused with a message for that person;
nothing is stored when it raises.
"""

import math

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404

from courses.access import course_role_among
from courses.models import Course, Exercise, Part
from courses.selectors import student_enrollment_find

#: The longest reason or comment kept.
MAX_REASON = 2000


class StaffActionRefused(Exception):
    """The input was refused; the message says why (nothing was stored)."""


def require_role(course: Course, user: User, roles: tuple[str, ...]) -> str:
    """`user`'s role in `course` (one query); PermissionDenied unless they are an active
    member in one of `roles`."""
    role = course_role_among(user=user, roles=roles, course=course)
    if role is None:
        raise PermissionDenied("You may not do this in this course.")
    return role


def score_from_points(points: float, part: Part) -> float:
    """`points` (out of the part's) as a fraction; StaffActionRefused outside 0..points."""
    if not math.isfinite(points) or points < 0 or points > part.points:
        raise StaffActionRefused(f"Points must be between 0 and {part.points:g}.")
    return points / part.points if part.points else 0.0


def course_student(course: Course, student_id: int) -> User:
    """The student of the course (Http404 otherwise)."""
    enrollment = student_enrollment_find(course=course, student_id=student_id)
    if enrollment is None:
        raise Http404("No such student in this course.")
    return enrollment.user


def course_exercise(course: Course, exercise_id: int) -> Exercise:
    """An active exercise of the course's module (Http404 otherwise)."""
    exercise = Exercise.objects.active().filter(pk=exercise_id, module_id__in=course.module_ids()).first()
    if exercise is None:
        raise Http404("No such exercise in this course.")
    return exercise
