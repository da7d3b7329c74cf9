"""Writes of the course team on an assessment: releasing feedback and keys, setting a
student's accommodation, and reopening a closed attempt with a reason. Each is audited."""

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from courses.access import STAFF_ROLES, course_role_among
from courses.models import Course, Enrollment
from exams.models import (
    Accommodation,
    Answer,
    Assessment,
    Attempt,
    AuditEntry,
    Proctoring,
    Release,
    WindowExtension,
)
from exams.scores import assessment_scores_refresh
from exams.services import AttemptRefused

#: Bounds of an accommodation, so that a typo cannot give a week-long attempt.
MAX_TIME_FACTOR = 5.0
MAX_EXTRA_ATTEMPTS = 20
#: How long a reopened attempt may run, in minutes.
MAX_REOPEN_MINUTES = 600


def _require(user: User, course: Course, *roles: str) -> None:
    if course_role_among(user=user, roles=roles, course=course) is None:
        raise AttemptRefused("Only the course's " + " or ".join(
            "instructors" if r == Enrollment.Role.INSTRUCTOR else "TAs" for r in roles)
            + " may do this.")


def feedback_release(*, assessment: Assessment, course: Course, by: User, feedback: bool,
                     key: bool) -> Release:
    """Release (or withdraw) the assessment's feedback and key to the course's students, for
    the assessments whose rules wait for a release. Instructors only."""
    _require(by, course, Enrollment.Role.INSTRUCTOR)
    with transaction.atomic():
        release, _ = Release.objects.update_or_create(
            assessment=assessment, course=course,
            defaults={"feedback": feedback, "key": key, "by": by})
        AuditEntry.objects.create(course=course, assessment=assessment, actor=by,
                                  action="release",
                                  detail=f"feedback {'on' if feedback else 'off'}, "
                                         f"key {'on' if key else 'off'}")
        assessment_scores_refresh(assessment=assessment, course_id=course.pk)
    return release


def accommodation_set(*, course: Course, student: User, time_factor: float,
                      extra_attempts: int, by: User) -> Accommodation:
    """Set the student's accommodation in the course (time factor 1..5, extra attempts
    0..20), applied to every attempt started from now. Instructors only."""
    _require(by, course, Enrollment.Role.INSTRUCTOR)
    if not 1.0 <= time_factor <= MAX_TIME_FACTOR:
        raise AttemptRefused(f"The time factor must be between 1 and {MAX_TIME_FACTOR:g}.")
    if not 0 <= extra_attempts <= MAX_EXTRA_ATTEMPTS:
        raise AttemptRefused(f"Extra attempts must be between 0 and {MAX_EXTRA_ATTEMPTS}.")
    if not Enrollment.objects.filter(user=student, course=course,
                                     role=Enrollment.Role.STUDENT).exists():
        raise AttemptRefused("That person is not a student of this course.")
    accommodation, _ = Accommodation.objects.update_or_create(
        course=course, student=student,
        defaults={"time_factor": time_factor, "extra_attempts": extra_attempts})
    return accommodation


def attempt_reopen(*, attempt_id: int, by: User, minutes: int, reason: str,
                   now: datetime | None = None) -> Attempt:
    """Reopen a closed attempt for `minutes` more (1..600) with its drafts, for a reason
    (audited); its grades are cleared until it closes again. TAs and instructors."""
    now = now or timezone.now()
    reason = reason.strip()
    if not reason:
        raise AttemptRefused("Say why the attempt is reopened.")
    if not 1 <= minutes <= MAX_REOPEN_MINUTES:
        raise AttemptRefused(f"Reopen for between 1 and {MAX_REOPEN_MINUTES} minutes.")
    with transaction.atomic():
        attempt = Attempt.objects.select_for_update().get(pk=attempt_id)
        _require(by, attempt.course, *STAFF_ROLES)
        if attempt.closed_at is None:
            raise AttemptRefused("This attempt is still open.")
        if Attempt.objects.filter(assessment_id=attempt.assessment_id, course_id=attempt.course_id,
                                  student_id=attempt.student_id, closed_at__isnull=True).exists():
            raise AttemptRefused("The student has another attempt open.")
        attempt.closed_at, attempt.closed_by, attempt.score = None, "", None
        attempt.deadline_at = now + timedelta(minutes=minutes)
        attempt.save(update_fields=["closed_at", "closed_by", "score", "deadline_at"])
        Answer.objects.filter(attempt=attempt).update(outcome="", score=None, feedback="")
        AuditEntry.objects.create(course_id=attempt.course_id,
                                  assessment_id=attempt.assessment_id, attempt=attempt,
                                  actor=by, action="reopen",
                                  detail=f"{minutes} min: {reason}"[:300])
        assessment_scores_refresh(assessment=attempt.assessment, course_id=attempt.course_id,
                                  student_ids=[attempt.student_id], now=now)
    return attempt


def access_code_set(*, assessment: Assessment, course: Course, code: str, by: User) -> Proctoring:
    """Set (or clear, with "") the access code students must give to start an attempt.
    Instructors and TAs (a proctor may be a TA)."""
    _require(by, course, *STAFF_ROLES)
    code = code.strip()
    if len(code) > 40:
        raise AttemptRefused("An access code has at most 40 characters.")
    with transaction.atomic():
        proctoring, _ = Proctoring.objects.update_or_create(
            assessment=assessment, course=course, defaults={"access_code": code})
        AuditEntry.objects.create(course=course, assessment=assessment, actor=by,
                                  action="access code",
                                  detail="set" if code else "removed")
    return proctoring


def window_extend(*, assessment: Assessment, course: Course, student: User,
                  closes_at: datetime, reason: str, by: User) -> WindowExtension:
    """Let one student start (and work) until `closes_at`, later than the assessment's close
    and at most 30 days after it, for a reason (audited). Instructors only."""
    _require(by, course, Enrollment.Role.INSTRUCTOR)
    reason = reason.strip()
    if not reason:
        raise AttemptRefused("Say why the window is extended.")
    if not assessment.closes_at < closes_at <= assessment.closes_at + timedelta(days=30):
        raise AttemptRefused("The new close must be after the assessment's close and at "
                             "most 30 days after it.")
    if not Enrollment.objects.filter(user=student, course=course,
                                     role=Enrollment.Role.STUDENT).exists():
        raise AttemptRefused("That person is not a student of this course.")
    with transaction.atomic():
        extension, _ = WindowExtension.objects.update_or_create(
            assessment=assessment, course=course, student=student,
            defaults={"closes_at": closes_at, "reason": reason[:300], "by": by})
        AuditEntry.objects.create(course=course, assessment=assessment, actor=by,
                                  action="extend",
                                  detail=f"{student.username} until {closes_at:%Y-%m-%d %H:%M %Z}: "
                                         f"{reason}"[:300])
    return extension
