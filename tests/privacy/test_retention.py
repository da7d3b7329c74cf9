"""Retention after a course ends: raw answers, lab runs and delivery logs go when the settings
say, scores stay, and a dry run only counts."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from courses.models import Course, Lab, Part
from events.models import WebhookDelivery, WebhookSubscription
from grading.models import PartProgress, Submission, WrongAnswerCount
from grading.services import submission_create
from labs.models import LabRun
from labs.services import lab_run_execute, lab_run_request
from privacy.retention import retention_apply

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended_course_work(settings, course, other_course, alice, bob):
    """Work in a course that ended 100 days ago, and in one still running."""
    from courses.models import Enrollment

    settings.RETENTION_RAW_ANSWERS_DAYS = 30
    settings.RETENTION_LAB_RUNS_DAYS = 60
    settings.RETENTION_DELIVERY_LOGS_DAYS = 90
    Enrollment.objects.create(user=bob, course=other_course)
    bound = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    old = submission_create(student=alice, course=course, part=bound, raw_answer="0.123")
    current = submission_create(student=bob, course=other_course, part=bound, raw_answer="0.321")
    run = lab_run_request(lab=Lab.objects.get(slug="rnn"), course=course, requester=alice, params={})
    lab_run_execute(run_id=run.pk)
    hook = WebhookSubscription.objects.create(course=course, url="http://x.example/", events=[],
                                              secret="s")
    WebhookDelivery.objects.create(subscription=hook, event="e", payload={}, status="delivered",
                                   next_attempt_at=timezone.now())
    WebhookDelivery.objects.create(subscription=hook, event="e", payload={}, status="pending",
                                   next_attempt_at=timezone.now())
    Course.objects.filter(pk=course.pk).update(ends_at=timezone.now() - timedelta(days=100))
    return old, current


def test_a_dry_run_counts_and_removes_nothing(ended_course_work) -> None:
    report = retention_apply(dry_run=True)
    assert (report.raw_answers, report.lab_runs, report.delivery_logs) == (1, 1, 1)
    assert Submission.objects.exclude(raw_answer="").count() == 2 and LabRun.objects.count() == 1


def test_what_is_past_its_period_goes_and_scores_stay(ended_course_work) -> None:
    old, current = ended_course_work
    report = retention_apply()
    assert (report.raw_answers, report.lab_runs, report.delivery_logs) == (1, 1, 1)
    old.refresh_from_db()
    assert (old.raw_answer, old.canonical, old.feedback) == ("", "", "")
    assert old.score is not None and old.outcome != "pending"
    assert Submission.objects.get(pk=current.pk).raw_answer == "0.321"
    assert not LabRun.objects.exists()
    assert list(WebhookDelivery.objects.values_list("status", flat=True)) == ["pending"]
    assert retention_apply().raw_answers == 0  # idempotent


def test_the_kept_progress_and_wrong_answer_sums_no_longer_quote_the_answers(
        ended_course_work, course) -> None:
    old, _ = ended_course_work
    assert WrongAnswerCount.objects.filter(course=course, canonical="0.123").exists()
    retention_apply()
    kept = PartProgress.objects.get(course=course, student_id=old.student_id)
    assert kept.last_wrong_key == "" and kept.attempts == 1 and kept.best_score == old.score
    assert list(WrongAnswerCount.objects.filter(course=course).values_list(
        "canonical", "answers")) == [("", 1)]
    assert WrongAnswerCount.objects.filter(canonical="0.321").exists()  # a running course


def test_periods_not_yet_over_and_unset_settings_keep_everything(settings, ended_course_work) -> None:
    settings.RETENTION_RAW_ANSWERS_DAYS = None
    settings.RETENTION_LAB_RUNS_DAYS = 365
    report = retention_apply()
    assert (report.raw_answers, report.lab_runs) == (0, 0)


def test_the_command_reports_the_periods_and_a_dry_run(ended_course_work) -> None:
    out = StringIO()
    call_command("apply_retention", "--dry-run", stdout=out)
    text = out.getvalue()
    assert "RETENTION_RAW_ANSWERS_DAYS = 30 days" in text and "would remove 1 lab run(s)" in text
    assert LabRun.objects.count() == 1


def test_retention_is_scheduled_daily(settings) -> None:
    entries = {e["task"]: e["schedule"] for e in settings.CELERY_BEAT_SCHEDULE.values()}
    assert entries["privacy.tasks.retention_apply_task"] == 24 * 3600.0
