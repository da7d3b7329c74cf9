"""Submissions a crash left half done are finished by the recovery sweep, and only those."""

from datetime import timedelta

import pytest
from django.utils import timezone

from courses.models import Part
from grading.models import Submission
from grading.predictions import MAX_PREDICTION_RUNS
from grading.recovery import submissions_recover
from grading.services import submission_create
from grading.variant_assignment import variant_for
from labs.models import LabRun
from labs.services import lab_run_execute
from tests.workers import wait_for

pytestmark = pytest.mark.django_db

LONG_AGO = timedelta(minutes=10)


@pytest.fixture
def bound(module_05) -> Part:
    return Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")


@pytest.fixture
def shape(module_05) -> Part:
    return Part.objects.get(exercise__slug="predict-alignment-shape", key="shape")


def _stored_but_never_graded(student, course, part, raw: str, age=LONG_AGO) -> Submission:
    """What a web process leaves when it dies between storing an answer and grading it."""
    variant = variant_for(student=student, course=course, exercise=part.exercise)
    submission = Submission.objects.create(student=student, course=course, part=part,
                                           raw_answer=raw, variant_seed=variant.seed)
    Submission.objects.filter(pk=submission.pk).update(created_at=timezone.now() - age)
    return submission


def _predicted_long_ago(student, course, part, capture) -> Submission:
    """A prediction made (and its lab run requested) well before the sweep's cutoff."""
    with capture(execute=True):
        submission = submission_create(student=student, course=course, part=part,
                                       raw_answer="diagonal-with-crossing")
    Submission.objects.filter(pk=submission.pk).update(created_at=timezone.now() - LONG_AGO)
    return submission


def _correct_bound(student, course, part) -> str:
    params = variant_for(student=student, course=course, exercise=part.exercise).params
    return repr(params["sigma"] ** params["steps"])


def test_an_answer_stored_but_never_graded_is_graded_and_counted(alice, course, bound):
    submission = _stored_but_never_graded(alice, course, bound,
                                          _correct_bound(alice, course, bound))

    report = submissions_recover()

    submission.refresh_from_db()
    assert report.graded == [submission.pk]
    assert submission.outcome == Submission.Outcome.CORRECT
    assert submission.counts_as_attempt and submission.graded_at is not None


def test_an_answer_pending_for_less_than_the_cutoff_is_left_alone(alice, course, bound):
    submission = _stored_but_never_graded(alice, course, bound, "0.5", age=timedelta(seconds=5))

    assert submissions_recover(older_than=timedelta(minutes=2)).total == 0
    submission.refresh_from_db()
    assert submission.outcome == Submission.Outcome.PENDING


def test_graded_answers_are_not_touched(alice, course, bound):
    graded = submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    Submission.objects.filter(pk=graded.pk).update(created_at=timezone.now() - LONG_AGO)

    assert submissions_recover().total == 0
    assert Submission.objects.get(pk=graded.pk).graded_at == graded.graded_at


def test_a_prediction_whose_run_was_never_requested_gets_one(
    alice, course, shape, django_capture_on_commit_callbacks
):
    submission = _stored_but_never_graded(alice, course, shape, "diagonal-with-crossing")

    with django_capture_on_commit_callbacks() as queued:
        report = submissions_recover()

    assert report.runs_requested == [submission.pk]
    run = LabRun.objects.get(submission=submission)
    assert run.status == LabRun.Status.QUEUED and len(queued) == 1
    assert Submission.objects.get(pk=submission.pk).outcome == Submission.Outcome.PENDING


def test_a_prediction_whose_run_finished_without_grading_it_is_graded(
    alice, course, shape, django_capture_on_commit_callbacks
):
    submission = _predicted_long_ago(alice, course, shape, django_capture_on_commit_callbacks)
    run = LabRun.objects.get(submission=submission)
    lab_run_execute(run_id=run.pk)  # the grading hook (on commit) is lost, as in a crash
    assert Submission.objects.get(pk=submission.pk).outcome == Submission.Outcome.PENDING
    LabRun.objects.filter(pk=run.pk).update(finished_at=timezone.now() - LONG_AGO)

    report = submissions_recover()

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
            assert lab_run_execute(run_id=run.pk) == "failed"

    fail_latest_run()
    first = Submission.objects.get(pk=submission.pk)
    assert first.outcome == Submission.Outcome.ERROR and "will run again" in first.feedback
    for retry in range(2, MAX_PREDICTION_RUNS + 1):
        with django_capture_on_commit_callbacks(execute=True):
            assert submissions_recover().runs_retried == [submission.pk]
        assert LabRun.objects.filter(submission=submission).count() == retry
        fail_latest_run()

    assert submissions_recover().total == 0
    last = Submission.objects.get(pk=submission.pk)
    assert last.outcome == Submission.Outcome.ERROR and "teacher" in last.feedback


@pytest.mark.services
def test_a_real_worker_grades_an_abandoned_answer_on_its_own(celery_worker, alice, course, bound):
    submission = _stored_but_never_graded(alice, course, bound,
                                          _correct_bound(alice, course, bound))

    wait_for(lambda: Submission.objects.get(pk=submission.pk).outcome
             == Submission.Outcome.CORRECT, timeout=60, interval=0.2)


def test_the_sweep_is_scheduled(settings):
    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "grading.tasks.submissions_recover_task" in schedule


class _GraderBug:
    """Makes the grader crash, as a bug in a checker would, until it is "fixed"."""

    def __init__(self, monkeypatch) -> None:
        import grading.predictions
        import grading.services

        self.monkeypatch = monkeypatch
        self.targets = (grading.services, grading.predictions)
        self.real = grading.services.grade
        for module in self.targets:
            monkeypatch.setattr(module, "grade", self.crash)

    @staticmethod
    def crash(*_args, **_kwargs):
        raise OverflowError("a grader bug")

    def fix(self, *, new_version: str | None = None) -> None:
        import grading.recovery

        for module in self.targets:
            self.monkeypatch.setattr(module, "grade", self.real)
        if new_version:
            for module in (*self.targets, grading.recovery):
                self.monkeypatch.setattr(module, "GRADER_VERSION", new_version)


def _age_verdict(submission: Submission) -> None:
    Submission.objects.filter(pk=submission.pk).update(graded_at=timezone.now() - LONG_AGO,
                                                       created_at=timezone.now() - LONG_AGO)


def test_an_answer_the_grader_crashed_on_is_graded_again_once_the_grader_is_fixed(
        alice, course, bound, monkeypatch):
    bug = _GraderBug(monkeypatch)
    submission = submission_create(student=alice, course=course, part=bound,
                                   raw_answer=_correct_bound(alice, course, bound))
    assert (submission.outcome, submission.grading_failures) == (Submission.Outcome.ERROR, 1)
    assert not submission.counts_as_attempt
    _age_verdict(submission)

    bug.fix()
    report = submissions_recover()

    submission.refresh_from_db()
    assert report.regraded_after_error == [submission.pk]
    assert submission.outcome == Submission.Outcome.CORRECT
    assert submission.counts_as_attempt and submission.grading_failures == 0


def test_an_error_verdict_younger_than_the_cutoff_waits(alice, course, bound, monkeypatch):
    bug = _GraderBug(monkeypatch)
    submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    bug.fix()
    assert submissions_recover(older_than=timedelta(minutes=2)).regraded_after_error == []


def test_a_grader_that_keeps_crashing_is_retried_a_bounded_number_of_times_per_version(
        alice, course, bound, monkeypatch):
    from grading.recovery import MAX_GRADING_RETRIES

    bug = _GraderBug(monkeypatch)
    submission = submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    for _ in range(MAX_GRADING_RETRIES):
        _age_verdict(submission)
        assert submissions_recover().regraded_after_error == [submission.pk]
    _age_verdict(submission)
    assert submissions_recover().total == 0  # given up with this grader version
    assert Submission.objects.get(pk=submission.pk).outcome == Submission.Outcome.ERROR

    bug.fix(new_version="99.0.0")  # a fix is deployed: one more try
    assert submissions_recover().regraded_after_error == [submission.pk]
    assert Submission.objects.get(pk=submission.pk).outcome in (Submission.Outcome.CORRECT,
                                                                Submission.Outcome.INCORRECT)


def test_a_prediction_the_grader_crashed_on_is_graded_again_from_its_run(
        alice, course, shape, monkeypatch, django_capture_on_commit_callbacks):
    submission = _predicted_long_ago(alice, course, shape, django_capture_on_commit_callbacks)
    run = LabRun.objects.get(submission=submission)
    bug = _GraderBug(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        lab_run_execute(run_id=run.pk)
    crashed = Submission.objects.get(pk=submission.pk)
    assert (crashed.outcome, crashed.grading_failures) == (Submission.Outcome.ERROR, 1)
    _age_verdict(crashed)

    bug.fix()
    assert submissions_recover().regraded_after_error == [submission.pk]
    assert Submission.objects.get(pk=submission.pk).outcome == Submission.Outcome.CORRECT


def test_one_submission_that_cannot_be_recovered_does_not_stop_the_sweep(
        alice, bob, course, bound, monkeypatch):
    first = _stored_but_never_graded(alice, course, bound, "0.5")
    second = _stored_but_never_graded(bob, course, bound, _correct_bound(bob, course, bound))
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
