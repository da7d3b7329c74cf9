"""Retention covers exam answers: once a course's raw-answer period is over, the text and
feedback of its exam answers (drafts and graded) go; attempts, outcomes and scores stay."""

from datetime import timedelta

import pytest
from django.utils import timezone

from courses.models import Course
from exams.models import Answer, Attempt
from exams.services import attempt_close, attempt_start, drafts_save
from privacy.retention import retention_apply
from tests.exams.conftest import quiz_course  # noqa: F401 - the fixture
from tests.exams.test_attempts import right_answers

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended_quiz(settings, quiz_course):  # noqa: F811
    settings.RETENTION_RAW_ANSWERS_DAYS = 30
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment).attempt
    drafts_save(attempt_id=attempt.pk, student=quiz_course.student,
                drafts=right_answers(attempt))
    attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT)
    return quiz_course, attempt


def _ended(course, days: int) -> None:
    Course.objects.filter(pk=course.pk).update(ends_at=timezone.now() - timedelta(days=days))


def test_exam_answers_lose_their_text_after_the_period_and_scores_stay(ended_quiz):
    quiz, attempt = ended_quiz
    _ended(quiz.course, 100)
    assert retention_apply(dry_run=True).exam_answers == len(attempt.paper)
    assert Answer.objects.exclude(raw="").count() == len(attempt.paper)
    report = retention_apply()
    assert report.exam_answers == len(attempt.paper)
    assert "removed the text of 2 exam answer(s)" in report.lines()
    assert not Answer.objects.exclude(raw="", feedback="").exists()
    attempt.refresh_from_db()
    assert attempt.score == pytest.approx(1.0)
    assert set(Answer.objects.values_list("score", flat=True)) == {1.0}


def test_exam_answers_of_a_course_still_in_its_period_stay(ended_quiz):
    quiz, attempt = ended_quiz
    _ended(quiz.course, 10)
    assert retention_apply().exam_answers == 0
    assert Answer.objects.exclude(raw="").count() == len(attempt.paper)
