"""Submissions a crash left half done are finished by the recovery sweep, and only those."""

from datetime import timedelta

import pytest
from django.utils import timezone

from courses.models import Part
from grading.models import Submission
from grading.recovery import submissions_recover
from grading.services import submission_create
from grading.variant_assignment import variant_for
from tests.crashes import LONG_AGO, GraderBug, age_verdict, stored_but_never_graded
from tests.workers import wait_for

pytestmark = pytest.mark.django_db



@pytest.fixture
def bound(module_05) -> Part:
    return Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")


def _correct_bound(student, course, part) -> str:
    params = variant_for(student=student, course=course, exercise=part.exercise).params
    return repr(params["sigma"] ** params["steps"])


def test_an_answerstored_but_never_graded_is_graded_and_counted(alice, course, bound):
    submission = stored_but_never_graded(alice, course, bound,
                                          _correct_bound(alice, course, bound))

    report = submissions_recover()

    submission.refresh_from_db()
    assert report.graded == [submission.pk]
    assert submission.outcome == Submission.Outcome.CORRECT
    assert submission.counts_as_attempt and submission.graded_at is not None


def test_an_answer_pending_for_less_than_the_cutoff_is_left_alone(alice, course, bound):
    submission = stored_but_never_graded(alice, course, bound, "0.5", age=timedelta(seconds=5))

    assert submissions_recover(older_than=timedelta(minutes=2)).total == 0
    submission.refresh_from_db()
    assert submission.outcome == Submission.Outcome.PENDING


def test_graded_answers_are_not_touched(alice, course, bound):
    graded = submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    Submission.objects.filter(pk=graded.pk).update(created_at=timezone.now() - LONG_AGO)

    assert submissions_recover().total == 0
    assert Submission.objects.get(pk=graded.pk).graded_at == graded.graded_at


@pytest.mark.services
def test_a_real_worker_grades_an_abandoned_answer_on_its_own(celery_worker, alice, course, bound):
    submission = stored_but_never_graded(alice, course, bound,
                                          _correct_bound(alice, course, bound))

    wait_for(lambda: Submission.objects.get(pk=submission.pk).outcome
             == Submission.Outcome.CORRECT, timeout=60, interval=0.2)


def test_the_sweep_is_scheduled(settings):
    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "grading.tasks.submissions_recover_task" in schedule


def test_an_answer_the_grader_crashed_on_is_graded_again_once_the_grader_is_fixed(
        alice, course, bound, monkeypatch):
    bug = GraderBug(monkeypatch)
    submission = submission_create(student=alice, course=course, part=bound,
                                   raw_answer=_correct_bound(alice, course, bound))
    assert (submission.outcome, submission.grading_failures) == (Submission.Outcome.ERROR, 1)
    assert not submission.counts_as_attempt
    age_verdict(submission)

    bug.fix()
    report = submissions_recover()

    submission.refresh_from_db()
    assert report.regraded_after_error == [submission.pk]
    assert submission.outcome == Submission.Outcome.CORRECT
    assert submission.counts_as_attempt and submission.grading_failures == 0


def test_an_error_verdict_younger_than_the_cutoff_waits(alice, course, bound, monkeypatch):
    bug = GraderBug(monkeypatch)
    submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    bug.fix()
    assert submissions_recover(older_than=timedelta(minutes=2)).regraded_after_error == []


def test_a_grader_that_keeps_crashing_is_retried_a_bounded_number_of_times_per_version(
        alice, course, bound, monkeypatch):
    from grading.recovery import MAX_GRADING_RETRIES

    bug = GraderBug(monkeypatch)
    submission = submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    for _ in range(MAX_GRADING_RETRIES):
        age_verdict(submission)
        assert submissions_recover().regraded_after_error == [submission.pk]
    age_verdict(submission)
    assert submissions_recover().total == 0  # given up with this grader version
    assert Submission.objects.get(pk=submission.pk).outcome == Submission.Outcome.ERROR

    bug.fix(new_version="99.0.0")  # a fix is deployed: one more try
    assert submissions_recover().regraded_after_error == [submission.pk]
    assert Submission.objects.get(pk=submission.pk).outcome in (Submission.Outcome.CORRECT,
                                                                Submission.Outcome.INCORRECT)


def test_one_submission_that_cannot_be_recovered_does_not_stop_the_sweep(
        alice, bob, course, bound, monkeypatch):
    first = stored_but_never_graded(alice, course, bound, "0.5")
    second = stored_but_never_graded(bob, course, bound, _correct_bound(bob, course, bound))
    import grading.recovery

    real = grading.recovery.submission_grade

    def grade_but_break_the_first(*, submission):
        if submission.pk == first.pk:
            raise RuntimeError("database hiccup")
        return real(submission=submission)

    monkeypatch.setattr(grading.recovery, "submission_grade", grade_but_break_the_first)
    report = submissions_recover()
    assert report.failed == [first.pk] and report.graded == [second.pk]
    assert Submission.objects.get(pk=second.pk).outcome == Submission.Outcome.CORRECT
