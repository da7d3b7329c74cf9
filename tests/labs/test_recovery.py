"""Predictions a crash left half done are finished by the labs recovery sweep, and only those."""


import pytest
from django.utils import timezone

from courses.models import Part
from grading.models import Submission
from grading.services import submission_create
from labs.models import LabRun
from labs.predictions import MAX_PREDICTION_RUNS, lab_run_execute_and_grade
from labs.recovery import predictions_recover
from labs.services import lab_run_execute
from tests.crashes import LONG_AGO, GraderBug, age_verdict, stored_but_never_graded

pytestmark = pytest.mark.django_db


@pytest.fixture
def shape(module_05) -> Part:
    return Part.objects.get(exercise__slug="predict-alignment-shape", key="shape")


def _predicted_long_ago(student, course, part, capture) -> Submission:
    """A prediction made (and its lab run requested) well before the sweep's cutoff."""
    with capture(execute=True):
        submission = submission_create(student=student, course=course, part=part,
                                       raw_answer="diagonal-with-crossing")
    Submission.objects.filter(pk=submission.pk).update(created_at=timezone.now() - LONG_AGO)
    return submission


def test_a_prediction_whose_run_was_never_requested_gets_one(
    alice, course, shape, django_capture_on_commit_callbacks
):
    submission = stored_but_never_graded(alice, course, shape, "diagonal-with-crossing")

    with django_capture_on_commit_callbacks() as queued:
        report = predictions_recover()

    assert report.runs_requested == [submission.pk]
    run = LabRun.objects.get(submission=submission)
    assert run.status == LabRun.Status.QUEUED and len(queued) == 1
    assert Submission.objects.get(pk=submission.pk).outcome == Submission.Outcome.PENDING


def test_a_prediction_whose_run_finished_without_grading_it_is_graded(
    alice, course, shape, django_capture_on_commit_callbacks
):
    submission = _predicted_long_ago(alice, course, shape, django_capture_on_commit_callbacks)
    run = LabRun.objects.get(submission=submission)
    lab_run_execute(run_id=run.pk)  # the worker dies before grading, as in a crash
    assert Submission.objects.get(pk=submission.pk).outcome == Submission.Outcome.PENDING
    LabRun.objects.filter(pk=run.pk).update(finished_at=timezone.now() - LONG_AGO)

    report = predictions_recover()

    assert report.predictions_graded == [submission.pk]
    assert Submission.objects.get(pk=submission.pk).outcome == Submission.Outcome.CORRECT


def test_a_prediction_whose_run_keeps_failing_is_run_again_then_left_to_a_person(
    alice, course, shape, django_capture_on_commit_callbacks
):
    submission = _predicted_long_ago(alice, course, shape, django_capture_on_commit_callbacks)
    breaking = {"weights": "x", "states": "y"}  # the simulation raises on these

    def fail_latest_run() -> None:
        run = LabRun.objects.filter(submission=submission).order_by("-pk").first()
        assert run is not None
        LabRun.objects.filter(pk=run.pk).update(params=breaking)
        with django_capture_on_commit_callbacks(execute=True):
            assert lab_run_execute_and_grade(run_id=run.pk) == "failed"

    fail_latest_run()
    first = Submission.objects.get(pk=submission.pk)
    assert first.outcome == Submission.Outcome.ERROR and "will run again" in first.feedback
    for retry in range(2, MAX_PREDICTION_RUNS + 1):
        with django_capture_on_commit_callbacks(execute=True):
            assert predictions_recover().runs_retried == [submission.pk]
        assert LabRun.objects.filter(submission=submission).count() == retry
        fail_latest_run()

    assert predictions_recover().total == 0
    last = Submission.objects.get(pk=submission.pk)
    assert last.outcome == Submission.Outcome.ERROR and "teacher" in last.feedback


def test_a_prediction_the_grader_crashed_on_is_graded_again_from_its_run(
        alice, course, shape, monkeypatch, django_capture_on_commit_callbacks):
    submission = _predicted_long_ago(alice, course, shape, django_capture_on_commit_callbacks)
    run = LabRun.objects.get(submission=submission)
    bug = GraderBug(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        lab_run_execute_and_grade(run_id=run.pk)
    crashed = Submission.objects.get(pk=submission.pk)
    assert (crashed.outcome, crashed.grading_failures) == (Submission.Outcome.ERROR, 1)
    age_verdict(crashed)

    bug.fix()
    assert predictions_recover().regraded_after_error == [submission.pk]
    assert Submission.objects.get(pk=submission.pk).outcome == Submission.Outcome.CORRECT
