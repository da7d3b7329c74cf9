"""Writes from the dashboard: reviews, grade overrides (audited), deadlines and extensions.

Each checks the acting user's role in the course itself (the views check too), validates its
input and raises DashboardRefused with a message for the person at the screen; nothing is
stored when it raises.
"""

import math
from datetime import datetime

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.utils import timezone

from courses.models import Course, Enrollment, Exercise, Part
from courses.selectors import student_enrollment_get
from grading.events import submission_graded_record
from grading.gradebook import FULL_MARKS
from grading.models import Deadline, DeadlineExtension, GradeOverride, Review, Submission

STAFF = (Enrollment.Role.INSTRUCTOR, Enrollment.Role.TA)
MAX_REASON = 2000


class DashboardRefused(Exception):
    """The input was refused; the message says why (nothing was stored)."""


def _require_role(course: Course, user: User, roles: tuple[str, ...]) -> None:
    allowed = Enrollment.objects.filter(course=course, user=user, is_active=True,
                                        role__in=roles).exists()
    if not allowed:
        raise PermissionDenied("You may not do this in this course.")


def _score(points: float, part: Part) -> float:
    if not math.isfinite(points) or points < 0 or points > part.points:
        raise DashboardRefused(f"Points must be between 0 and {part.points:g}.")
    return points / part.points if part.points else 0.0


def _student(course: Course, student_id: int) -> User:
    return student_enrollment_get(course=course, student_id=student_id).user


def _exercise(course: Course, exercise_id: int) -> Exercise:
    exercise = Exercise.objects.active().filter(pk=exercise_id, module_id=course.module_id).first()
    if exercise is None:
        raise Http404("No such exercise in this course.")
    return exercise


@transaction.atomic(durable=True)
def review_create(*, course: Course, submission_id: int, reviewer: User, points: float,
                  comment: str = "") -> Review:
    """Grade an answer awaiting review (or re-grade a reviewed one) with `points` out of the
    part's points; the submission takes the score, an outcome from it (full marks correct,
    some partial, none incorrect) and the comment as its feedback, and a submission.graded
    webhook is recorded in the same transaction. Every review is kept.

    Raises PermissionDenied unless `reviewer` is an instructor or TA of the course, Http404
    for a submission not in the course, DashboardRefused for bad points or an answer that
    was graded by the checker (override its grade instead).
    """
    _require_role(course, reviewer, STAFF)
    submission = (Submission.objects.select_for_update().select_related("part")
                  .filter(pk=submission_id, course=course).first())
    if submission is None:
        raise Http404("No such answer in this course.")
    reviewed_before = submission.reviews.exists()
    if submission.outcome != Submission.Outcome.REVIEW and not reviewed_before:
        raise DashboardRefused("This answer was graded automatically; override the grade "
                               "instead of reviewing it.")
    score = _score(points, submission.part)
    comment = comment.strip()[:MAX_REASON]
    review = Review.objects.create(submission=submission, reviewer=reviewer, score=score,
                                   comment=comment)
    submission.score = score
    submission.outcome = (Submission.Outcome.CORRECT if score >= FULL_MARKS else
                          Submission.Outcome.PARTIAL if score > 0 else Submission.Outcome.INCORRECT)
    submission.feedback = comment or "Reviewed by your instructor."
    submission.graded_at = timezone.now()
    submission.save(update_fields=["score", "outcome", "feedback", "graded_at"])
    # A reviewed answer is a graded submission for the LMS (the outbox commits with it).
    submission_graded_record(submission)
    return review


@transaction.atomic(durable=True)
def grade_override_create(*, course: Course, student_id: int, part_id: int,
                          points: float | None, reason: str, by: User) -> GradeOverride:
    """Record an override of a student's grade on a part (`points` None removes earlier
    overrides, so the computed best score applies again). The reason is required; every
    override is kept as the audit trail and the latest applies in the gradebook.

    Raises PermissionDenied unless `by` is an instructor or TA of the course, Http404 for a
    student or part not in the course, DashboardRefused for a missing reason or bad points.
    """
    _require_role(course, by, STAFF)
    student = _student(course, student_id)
    part = (Part.objects.active().filter(pk=part_id, exercise__module_id=course.module_id)
            .first())
    if part is None:
        raise Http404("No such question in this course.")
    reason = reason.strip()
    if not reason:
        raise DashboardRefused("Give a reason for the override; it is kept in the audit trail.")
    if len(reason) > MAX_REASON:
        raise DashboardRefused(f"Keep the reason under {MAX_REASON} characters.")
    score = None if points is None else _score(points, part)
    return GradeOverride.objects.create(course=course, student=student, part=part, score=score,
                                        reason=reason, created_by=by)


def _aware(due_at: datetime) -> datetime:
    if timezone.is_naive(due_at):
        raise DashboardRefused("The date needs a time zone.")
    return due_at


@transaction.atomic(durable=True)
def deadline_set(*, course: Course, exercise_id: int, due_at: datetime | None,
                 by: User) -> Deadline | None:
    """Set (or with `due_at` None remove) the exercise's deadline in the course.

    Raises PermissionDenied unless `by` is an instructor of the course (TAs cannot change
    deadlines), Http404 for an exercise not in the course.
    """
    _require_role(course, by, (Enrollment.Role.INSTRUCTOR,))
    exercise = _exercise(course, exercise_id)
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
    _require_role(course, by, (Enrollment.Role.INSTRUCTOR,))
    exercise = _exercise(course, exercise_id)
    student = _student(course, student_id)
    if due_at is None:
        DeadlineExtension.objects.filter(course=course, exercise=exercise,
                                         student=student).delete()
        return None
    extension, _ = DeadlineExtension.objects.update_or_create(
        course=course, exercise=exercise, student=student,
        defaults={"due_at": _aware(due_at), "reason": reason.strip()[:MAX_REASON],
                  "granted_by": by})
    return extension
