"""An access code set by the course team is needed to start; a window extension lets one
student start later, and "after the close" waits for the last extension."""

from datetime import timedelta

import pytest
from django.utils import timezone

from courses.models import Enrollment
from exams.models import Attempt, AuditEntry, Release
from exams.policy import review_visibility
from exams.services import AttemptRefused, attempt_close, attempt_start
from exams.staff import access_code_set, window_extend
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_wrong_or_missing_access_code_is_refused_and_changes_nothing(quiz_course):
    proctor = UserFactory(username="proctor")
    EnrollmentFactory(course=quiz_course.course, user=proctor, role=Enrollment.Role.TA)
    access_code_set(assessment=quiz_course.assessment, course=quiz_course.course,
                    code="Blue-Heron", by=proctor)
    args = {"student": quiz_course.student, "course": quiz_course.course,
            "assessment": quiz_course.assessment}
    for given in (None, "", "blue-herons"):
        with pytest.raises(AttemptRefused, match="not the access code"):
            attempt_start(**args, access_code=given)
    assert Attempt.objects.count() == 0
    assert attempt_start(**args, access_code=" blue-heron ").attempt.number == 1
    assert AuditEntry.objects.filter(action="access code", actor=proctor).count() == 1


def test_an_extension_lets_one_student_start_after_the_close(quiz_course):
    assessment = quiz_course.assessment
    after = assessment.closes_at + timedelta(hours=1)
    with pytest.raises(AttemptRefused, match="closed on"):
        attempt_start(student=quiz_course.student, course=quiz_course.course,
                      assessment=assessment, now=after)
    window_extend(assessment=assessment, course=quiz_course.course,
                  student=quiz_course.student, closes_at=assessment.closes_at + timedelta(days=1),
                  reason="ill on the day", by=quiz_course.instructor)
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=assessment, now=after).attempt
    assert attempt.deadline_at == after + timedelta(minutes=20)
    with pytest.raises(AttemptRefused, match="Say why"):
        window_extend(assessment=assessment, course=quiz_course.course,
                      student=quiz_course.student, closes_at=after, reason="",
                      by=quiz_course.instructor)


def test_the_key_after_the_close_waits_for_the_last_extension(quiz_course):
    assessment = quiz_course.assessment
    assessment.key = "after_close"
    assessment.save(update_fields=["key"])
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=assessment).attempt
    attempt = attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT)
    just_after = assessment.closes_at + timedelta(minutes=1)
    assert review_visibility(attempt=attempt, now=just_after, release=None).key
    later = assessment.closes_at + timedelta(days=1)
    visible = review_visibility(attempt=attempt, now=just_after, release=None, last_close=later)
    assert not visible.key
    assert review_visibility(attempt=attempt, now=later, release=None, last_close=later).key
    assert not Release.objects.exists() and timezone.now() < assessment.closes_at
