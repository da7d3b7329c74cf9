"""An assessment's score goes to the LMS (AGS, through the outbox and the score deliveries)
only once the release rule shows it, once per change: the kept score rows of exams/scores.py
and the platform's real HTTP endpoints (tasks run in-process here; the browser test runs a
real worker)."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from exams.models import Assessment, AssessmentScore, Question
from exams.regrade import question_regrade
from exams.scores import assessment_scores_refresh, assessment_scores_release_due
from exams.services import attempt_close, attempt_start, drafts_save
from exams.staff import attempt_reopen, feedback_release
from lti.ags.deliveries import score_delivery_attempt
from lti.scores_models import ScoreDelivery
from lti.sync.selectors import sync_health
from tests.exams.test_attempts import right_answers
from tests.lti.ags_setup import platform_link
from tests.lti.conftest import lms_server  # noqa: F401  (the LMS's HTTP server)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def link(lms_server, quiz_course):  # noqa: F811
    link = platform_link(lms_server, quiz_course.course)
    link.identity(quiz_course.student)
    return link


def _rule(assessment: Assessment, feedback: str) -> Assessment:
    assessment.feedback = feedback
    assessment.save(update_fields=["feedback"])
    return assessment


def _deliver_all() -> list[str]:
    return [score_delivery_attempt(delivery_id=pk).outcome
            for pk in ScoreDelivery.objects.order_by("pk").values_list("pk", flat=True)]


def _submitted(quiz_course, *, right: bool = True):
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment).attempt
    if right:
        drafts_save(attempt_id=attempt.pk, student=quiz_course.student,
                    drafts=right_answers(attempt))
    return attempt_close(attempt_id=attempt.pk, by="student")


def test_a_score_waiting_for_release_is_not_sent_and_is_sent_once_on_release(quiz_course, link):
    assessment = _rule(quiz_course.assessment, Assessment.Feedback.ON_RELEASE)
    attempt = _submitted(quiz_course)
    assert attempt.score == pytest.approx(1.0)

    kept = AssessmentScore.objects.get()
    assert kept.score == pytest.approx(1.0) and not kept.released
    assert not ScoreDelivery.objects.exists() and _deliver_all() == []

    feedback_release(assessment=assessment, course=quiz_course.course,
                     by=quiz_course.instructor, feedback=True, key=False)
    assert _deliver_all() == ["sent"], ScoreDelivery.objects.values_list("last_error")[0]
    [score] = link.platform.scores
    assert score.user_id == "sub-student"
    assert score.body["scoreGiven"] == pytest.approx(100.0)
    assert score.body["scoreMaximum"] == pytest.approx(100.0)
    assert score.body["activityProgress"] == "Completed"
    assert score.body["gradingProgress"] == "FullyGraded"
    [item] = link.platform.line_items.values()
    assert item["resourceId"] == str(assessment.uuid) and item["label"] == assessment.title
    [shown] = sync_health(course=quiz_course.course).rows  # the LMS sync page's row
    assert (shown.exercise, shown.exercise_title, shown.state) == (
        "quiz-1", assessment.title, "sent")

    # Released again (the key too): the score has not changed, nothing is sent again.
    feedback_release(assessment=assessment, course=quiz_course.course,
                     by=quiz_course.instructor, feedback=True, key=True)
    assert _deliver_all() == ["skipped"] and len(link.platform.scores) == 1


def test_a_reopened_attempt_sends_its_changed_score_when_it_closes_again(quiz_course, link):
    assessment = _rule(quiz_course.assessment, Assessment.Feedback.ON_RELEASE)
    attempt = _submitted(quiz_course)
    feedback_release(assessment=assessment, course=quiz_course.course,
                     by=quiz_course.instructor, feedback=True, key=False)
    _deliver_all()

    attempt_reopen(attempt_id=attempt.pk, by=quiz_course.instructor, minutes=10,
                   reason="wrong paper handed out")
    # Open again: no score to send until it closes (the LMS keeps the last one).
    assert _deliver_all() == ["skipped"] and len(link.platform.scores) == 1
    drafts_save(attempt_id=attempt.pk, student=quiz_course.student,
                drafts={key: "0" for key in right_answers(attempt)})
    attempt_close(attempt_id=attempt.pk, by="student")

    assert _deliver_all() == ["sent"]
    first, second = link.platform.scores
    assert first.body["scoreGiven"] == pytest.approx(100.0)
    assert second.body["scoreGiven"] == pytest.approx(0.0)
    assert second.body["timestamp"] > first.body["timestamp"] and second.applied


def test_a_withdrawn_release_sends_nothing_and_hides_the_score_again(quiz_course, link):
    assessment = _rule(quiz_course.assessment, Assessment.Feedback.ON_RELEASE)
    _submitted(quiz_course)
    for feedback in (True, False):
        feedback_release(assessment=assessment, course=quiz_course.course,
                         by=quiz_course.instructor, feedback=feedback, key=False)
    assert _deliver_all() == ["sent"] and len(link.platform.scores) == 1
    kept = AssessmentScore.objects.get()
    assert not kept.released and kept.released_score == pytest.approx(1.0)


def test_after_the_close_the_sweep_sends_the_score_once_the_window_has_closed(quiz_course, link):
    assessment = _rule(quiz_course.assessment, Assessment.Feedback.AFTER_CLOSE)
    _submitted(quiz_course)
    assert assessment_scores_release_due() == 0  # the window is still open
    assert not ScoreDelivery.objects.exists()

    after_close = assessment.closes_at + timedelta(seconds=1)
    assert assessment_scores_release_due(now=after_close) == 1
    assert assessment_scores_release_due(now=after_close) == 0  # released once
    assert _deliver_all() == ["sent"] and len(link.platform.scores) == 1


def test_after_submit_sends_the_score_as_the_attempt_closes(quiz_course, link):
    _rule(quiz_course.assessment, Assessment.Feedback.AFTER_SUBMIT)
    _submitted(quiz_course, right=False)
    assert _deliver_all() == ["sent"]
    [score] = link.platform.scores
    assert score.body["scoreGiven"] == pytest.approx(0.0)


def test_a_student_without_an_lms_identity_gets_no_delivery(quiz_course, lms_server):  # noqa: F811
    platform_link(lms_server, quiz_course.course)  # no identity for the student
    _rule(quiz_course.assessment, Assessment.Feedback.AFTER_SUBMIT)
    _submitted(quiz_course)
    assert AssessmentScore.objects.get().released
    assert not ScoreDelivery.objects.exists()


def test_the_kept_score_counts_the_best_or_the_last_closed_attempt(quiz_course):
    assessment = quiz_course.assessment
    assessment.attempts, assessment.counts = 2, Assessment.Counts.LAST
    assessment.save(update_fields=["attempts", "counts"])
    _submitted(quiz_course)
    _submitted(quiz_course, right=False)
    assert AssessmentScore.objects.get().score == pytest.approx(0.0)
    assert AssessmentScore.objects.get().attempts == 2

    assessment.counts = Assessment.Counts.BEST
    assessment.save(update_fields=["counts"])
    with transaction.atomic():
        assessment_scores_refresh(assessment=assessment, course_id=quiz_course.course.pk,
                                  now=timezone.now())
    assert AssessmentScore.objects.get().score == pytest.approx(1.0)


def test_a_regrade_that_changes_a_released_score_sends_the_new_score(quiz_course, link):
    _rule(quiz_course.assessment, Assessment.Feedback.AFTER_SUBMIT)
    attempt = _submitted(quiz_course)
    assert _deliver_all() == ["sent"]

    # A wrong reference fixed the wrong way round: the right answers now score 0 on it.
    question = Question.objects.get(uuid=attempt.paper[0]["question"])
    question.parts = [{**question.parts[0],
                       "reference": f"({question.parts[0]['reference']})+1"}]
    question.save(update_fields=["parts"])
    report = question_regrade(question=question)
    assert len(report.attempts) == 1

    assert _deliver_all() == ["sent"]
    first, second = link.platform.scores
    assert first.body["scoreGiven"] == pytest.approx(100.0)
    assert second.body["scoreGiven"] == pytest.approx(100.0 * report.attempts[0].after)
    assert second.body["scoreGiven"] < first.body["scoreGiven"]
    assert AssessmentScore.objects.get().score == pytest.approx(report.attempts[0].after)
