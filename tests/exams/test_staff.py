"""The course team's side: release rules as an access rule, accommodations, reopening an
attempt with a reason (audited), the item analysis page; students never reach any of it."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from courses.models import Enrollment
from exams.models import Accommodation, Answer, Assessment, Attempt, AuditEntry, Release
from exams.policy import review_visibility
from exams.services import AttemptRefused, attempt_close, attempt_start, drafts_save
from exams.staff import attempt_reopen, feedback_release
from tests.exams.test_attempts import right_answers
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _closed(quiz, student=None) -> Attempt:
    student = student or quiz.student
    attempt = attempt_start(student=student, course=quiz.course,
                            assessment=quiz.assessment).attempt
    drafts_save(attempt_id=attempt.pk, student=student, drafts=right_answers(attempt))
    return attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT)


@pytest.mark.parametrize(("feedback", "key", "window", "released", "expected"), [
    ("after_submit", "after_close", "open", None, (True, False)),
    ("after_submit", "after_close", "closed", None, (True, True)),
    ("after_close", "after_close", "open", None, (False, False)),
    ("after_close", "never", "closed", None, (True, False)),
    ("on_release", "on_release", "closed", None, (False, False)),
    ("on_release", "on_release", "closed", (True, False), (True, False)),
    ("on_release", "on_release", "open", (True, True), (True, True)),
])
def test_the_review_shows_exactly_what_the_release_rule_allows(
        quiz_course, feedback, key, window, released, expected):
    Assessment.objects.filter(pk=quiz_course.assessment.pk).update(feedback=feedback, key=key)
    quiz_course.assessment.refresh_from_db()
    attempt = _closed(quiz_course)
    if released:
        Release.objects.create(assessment=quiz_course.assessment, course=quiz_course.course,
                               feedback=released[0], key=released[1])
    now = quiz_course.assessment.closes_at + timedelta(seconds=1) if window == "closed" \
        else timezone.now()
    release = Release.objects.filter(assessment=quiz_course.assessment).first()
    visible = review_visibility(attempt=attempt, now=now, release=release)
    assert (visible.correctness, visible.key) == expected
    if window == "open":  # the page the student gets says the same
        page = _client(quiz_course.student).get(
            reverse("exams:attempt", args=[quiz_course.course.slug, attempt.pk])).content.decode()
        assert ("Score:" in page, "<dt>Key</dt>" in page) == expected


def test_an_open_attempt_shows_neither_whatever_the_release(quiz_course):
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment).attempt
    release = Release(assessment=quiz_course.assessment, course=quiz_course.course,
                      feedback=True, key=True)
    visible = review_visibility(attempt=attempt, now=timezone.now(), release=release)
    assert (visible.correctness, visible.key) == (False, False)


def test_students_never_reach_the_team_page_and_tas_cannot_release(quiz_course):
    url = reverse("exams:staff", args=[quiz_course.course.slug, "quiz-1"])
    assert _client(quiz_course.student).get(url).status_code == 404
    assert _client(quiz_course.student).post(url + "release/", {"key": "on"}).status_code == 404
    ta = UserFactory(username="tara")
    EnrollmentFactory(course=quiz_course.course, user=ta, role=Enrollment.Role.TA)
    assert _client(ta).get(url).status_code == 200
    with pytest.raises(AttemptRefused, match="instructors"):
        feedback_release(assessment=quiz_course.assessment, course=quiz_course.course, by=ta,
                         feedback=True, key=True)
    assert not Release.objects.exists()


def test_an_instructor_releases_and_sets_an_accommodation_from_the_page(quiz_course):
    client = _client(quiz_course.instructor)
    base = reverse("exams:staff", args=[quiz_course.course.slug, "quiz-1"])
    client.post(base + "release/", {"feedback": "on", "key": "on"})
    assert Release.objects.filter(feedback=True, key=True).count() == 1
    client.post(base + "accommodations/", {"username": "student", "time_factor": "1.5",
                                           "extra_attempts": "1"})
    accommodation = Accommodation.objects.get(student=quiz_course.student)
    assert (accommodation.time_factor, accommodation.extra_attempts) == (1.5, 1)
    page = client.post(base + "accommodations/", {"username": "student", "time_factor": "50",
                                                  "extra_attempts": "1"}, follow=True)
    assert "Time factor: Ensure this value is less than or equal to 5.0." in page.content.decode()
    assert Accommodation.objects.get(student=quiz_course.student).time_factor == 1.5
    assert AuditEntry.objects.filter(action="release").count() == 1


def test_a_ta_reopens_an_attempt_with_a_reason_and_it_closes_and_grades_again(quiz_course):
    ta = UserFactory(username="tara")
    EnrollmentFactory(course=quiz_course.course, user=ta, role=Enrollment.Role.TA)
    attempt = _closed(quiz_course)
    with pytest.raises(AttemptRefused, match="Say why"):
        attempt_reopen(attempt_id=attempt.pk, by=ta, minutes=10, reason=" ")
    with pytest.raises(AttemptRefused, match="Only"):
        attempt_reopen(attempt_id=attempt.pk, by=quiz_course.student, minutes=10, reason="x")
    reopened = attempt_reopen(attempt_id=attempt.pk, by=ta, minutes=10, reason="power cut")
    assert reopened.closed_at is None and reopened.score is None
    assert set(Answer.objects.filter(attempt=attempt).values_list("outcome", flat=True)) == {""}
    wrong = {where: "7" for where in right_answers(attempt)}
    drafts_save(attempt_id=attempt.pk, student=quiz_course.student, drafts=wrong)
    assert attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT).score == 0.0
    assert AuditEntry.objects.get(action="reopen").detail == "10 min: power cut"


def test_the_team_page_shows_the_item_analysis_and_the_audit_log(quiz_course):
    for n in range(3):
        student = UserFactory(username=f"s{n}")
        EnrollmentFactory(course=quiz_course.course, user=student)
        attempt = attempt_start(student=student, course=quiz_course.course,
                                assessment=quiz_course.assessment).attempt
        drafts = right_answers(attempt)
        drafts_save(attempt_id=attempt.pk, student=student,
                    drafts=dict(list(drafts.items())[:n]) if n < 2 else drafts)
        attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT)
    page = _client(quiz_course.instructor).get(
        reverse("exams:staff", args=[quiz_course.course.slug, "quiz-1"])).content.decode()
    assert "3 counted papers; Cronbach's alpha" in page
    assert "Questions and their variants" in page
    assert page.count("submit by") == 3 and "start by s0" in page
