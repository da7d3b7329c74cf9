"""Finishing predictions that a crash left half done, so that none waits forever.

A prediction is stored (pending, locked) and graded when its lab run finishes
(labs/predictions.py). A process that dies between those steps leaves it with nothing to
move it on. The sweep, run by Celery beat and on worker start, finds predictions pending or
failed for longer than any request takes and:

- requests the lab run of a prediction that has none;
- grades a prediction whose run finished but whose grading was lost;
- runs the lab again for a prediction whose run failed, up to MAX_PREDICTION_RUNS runs;
- grades again a prediction the grader crashed on (outcome "error" with a succeeded run):
  up to MAX_GRADING_RETRIES times per grader version, and once more after an upgrade.

Predictions whose run is still queued or running are left to the lab run sweeper. One
prediction that cannot be recovered is logged and skipped; the sweep goes on.
"""

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from grading.checkers import GRADER_VERSION
from grading.models import Submission
from grading.recovery import MAX_GRADING_RETRIES, recover_one
from grading.variant_assignment import variant_for
from grading.verdicts import NewVerdict, Why, verdict_record
from labs.models import LabRun
from labs.predictions import MAX_PREDICTION_RUNS, prediction_submit, predictions_grade_for_run

logger = logging.getLogger(__name__)

#: A prediction pending this long was abandoned (the same cutoff as grading's sweep).
STALE_AFTER = timedelta(seconds=getattr(settings, "SUBMISSION_RECOVERY_SECONDS", 120))


@dataclass
class PredictionRecovery:
    """The ids of the predictions each kind of recovery touched."""

    runs_requested: list[int] = field(default_factory=list)
    predictions_graded: list[int] = field(default_factory=list)
    runs_retried: list[int] = field(default_factory=list)
    regraded_after_error: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)

    @property
    def total(self) -> int:
        return (len(self.runs_requested) + len(self.predictions_graded) + len(self.runs_retried)
                + len(self.regraded_after_error))


def predictions_recover(*, older_than: timedelta = STALE_AFTER,
                        now: datetime | None = None) -> PredictionRecovery:
    """Move on every prediction abandoned for longer than `older_than` (see the module).

    Safe to run at any time and in several workers at once: each submission is locked and
    re-read in its own transaction, and skipped unless still in the state it was found in.
    """
    cutoff = (now or timezone.now()) - older_than
    report = PredictionRecovery()
    predictions = Submission.objects.filter(part__spec__has_key="lab")
    pending = predictions.filter(outcome=Submission.Outcome.PENDING, created_at__lt=cutoff)
    for submission_id in pending.order_by("pk").values_list("pk", flat=True):
        if recover_one(submission_id, Submission.Outcome.PENDING,
                       lambda s: _recover_pending(s, cutoff, report)) is False:
            report.failed.append(submission_id)
    failed_runs = predictions.filter(
        outcome=Submission.Outcome.ERROR, created_at__lt=cutoff, grading_failures=0,
        lab_runs__status=LabRun.Status.FAILED,
    ).distinct()
    for submission_id in failed_runs.order_by("pk").values_list("pk", flat=True):
        if recover_one(submission_id, Submission.Outcome.ERROR,
                       lambda s: _retry_failed_run(s, report)) is False:
            report.failed.append(submission_id)
    crashed = predictions.filter(
        Q(grading_failures__lte=MAX_GRADING_RETRIES) | ~Q(grader_version=GRADER_VERSION),
        outcome=Submission.Outcome.ERROR, grading_failures__gt=0, graded_at__lt=cutoff,
    )
    for submission_id in crashed.order_by("pk").values_list("pk", flat=True):
        if recover_one(submission_id, Submission.Outcome.ERROR,
                       lambda s: _regrade_after_error(s, report)) is False:
            report.failed.append(submission_id)
    if report.total or report.failed:
        logger.warning("recovered abandoned predictions: %s", report)
    return report


def _recover_pending(submission: Submission, cutoff: datetime, report: PredictionRecovery) -> None:
    latest = _latest_run(submission)
    if latest is None:
        _request_run(submission)
        report.runs_requested.append(submission.pk)
        return
    finished_long_ago = latest.finished_at is not None and latest.finished_at < cutoff
    if finished_long_ago and predictions_grade_for_run(run_id=latest.pk):
        report.predictions_graded.append(submission.pk)


def _retry_failed_run(submission: Submission, report: PredictionRecovery) -> None:
    latest = _latest_run(submission)
    if (latest is None or latest.status != LabRun.Status.FAILED
            or submission.lab_runs.count() >= MAX_PREDICTION_RUNS):
        return
    _reset(submission, "Prediction recorded. Running the lab again...")
    _request_run(submission)
    report.runs_retried.append(submission.pk)


def _regrade_after_error(submission: Submission, report: PredictionRecovery) -> None:
    latest = _latest_run(submission)
    if latest is None or latest.status != LabRun.Status.SUCCEEDED:
        return  # the run itself failed: _retry_failed_run decides
    _reset(submission, submission.feedback)
    predictions_grade_for_run(run_id=latest.pk)
    report.regraded_after_error.append(submission.pk)


def _reset(submission: Submission, feedback: str) -> None:
    """The prediction back to pending (its lab runs again, or it is graded again), through
    the one verdict writer; its score, attempt and grader failures are kept."""
    verdict_record(submission=submission, why=Why.RESET, verdict=NewVerdict(
        outcome=Submission.Outcome.PENDING, score=submission.score, feedback=feedback,
        misconception=submission.misconception, by_grader=False))


def _latest_run(submission: Submission) -> LabRun | None:
    return submission.lab_runs.order_by("-queued_at", "-pk").first()


def _request_run(submission: Submission) -> None:
    variant = variant_for(student=submission.student, course=submission.course,
                          exercise=submission.part.exercise)
    prediction_submit(submission, variant.params)
