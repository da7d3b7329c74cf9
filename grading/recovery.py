"""Finishing submissions that a crash left half done, so that no stored answer waits forever.

An answer is stored before it is graded (grading/services.py), and a prediction is graded only
when its lab run finishes (grading/predictions.py). A process that dies between those steps
leaves the submission "pending" with nothing left to move it on. The sweep, run by Celery beat
and on worker start, finds submissions pending for longer than any request takes and:

- grades an ordinary answer that was never graded;
- requests the lab run of a prediction that has none;
- grades a prediction whose run finished but whose grading hook was lost;
- runs the lab again for a prediction whose run failed, up to MAX_PREDICTION_RUNS runs.

Predictions whose run is still queued or running are left to the lab run sweeper.
"""

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from grading.models import Submission
from grading.predictions import MAX_PREDICTION_RUNS, prediction_submit, predictions_grade_for_run
from grading.services import submission_grade
from grading.variant_assignment import variant_for
from labs.models import LabRun

logger = logging.getLogger(__name__)

#: A submission pending this long was abandoned: grading takes well under a second and a web
#: request is cut off long before this.
STALE_AFTER = timedelta(seconds=getattr(settings, "SUBMISSION_RECOVERY_SECONDS", 120))


@dataclass
class RecoveryReport:
    """The ids of the submissions each kind of recovery touched."""

    graded: list[int] = field(default_factory=list)
    runs_requested: list[int] = field(default_factory=list)
    predictions_graded: list[int] = field(default_factory=list)
    runs_retried: list[int] = field(default_factory=list)

    @property
    def total(self) -> int:
        return (len(self.graded) + len(self.runs_requested) + len(self.predictions_graded)
                + len(self.runs_retried))


def submissions_recover(*, older_than: timedelta = STALE_AFTER,
                        now: datetime | None = None) -> RecoveryReport:
    """Move on every submission abandoned for longer than `older_than` (see the module).

    Safe to run at any time and in several workers at once: each submission is locked and
    re-read in its own transaction, and skipped unless still in the state it was found in.
    """
    cutoff = (now or timezone.now()) - older_than
    report = RecoveryReport()
    pending = Submission.objects.filter(
        outcome=Submission.Outcome.PENDING, created_at__lt=cutoff).order_by("pk")
    for submission_id in pending.values_list("pk", flat=True):
        with transaction.atomic():
            submission = _lock_if_still(submission_id, Submission.Outcome.PENDING)
            if submission is not None:
                _recover_pending(submission, cutoff, report)
    failed_predictions = Submission.objects.filter(
        outcome=Submission.Outcome.ERROR, created_at__lt=cutoff,
        lab_runs__status=LabRun.Status.FAILED,
    ).distinct().order_by("pk")
    for submission_id in failed_predictions.values_list("pk", flat=True):
        with transaction.atomic():
            submission = _lock_if_still(submission_id, Submission.Outcome.ERROR)
            if submission is not None:
                _retry_failed_prediction(submission, report)
    if report.total:
        logger.warning("recovered abandoned submissions: %s", report)
    return report


def _recover_pending(submission: Submission, cutoff: datetime, report: RecoveryReport) -> None:
    if not submission.part.spec.get("lab"):
        submission_grade(submission=submission)
        report.graded.append(submission.pk)
        return
    latest = _latest_run(submission)
    if latest is None:
        _request_run(submission)
        report.runs_requested.append(submission.pk)
        return
    finished_long_ago = latest.finished_at is not None and latest.finished_at < cutoff
    if finished_long_ago and predictions_grade_for_run(run_id=latest.pk):
        report.predictions_graded.append(submission.pk)


def _retry_failed_prediction(submission: Submission, report: RecoveryReport) -> None:
    latest = _latest_run(submission)
    if (latest is None or latest.status != LabRun.Status.FAILED
            or submission.lab_runs.count() >= MAX_PREDICTION_RUNS):
        return
    Submission.objects.filter(pk=submission.pk).update(
        outcome=Submission.Outcome.PENDING, feedback="Prediction recorded. Running the lab again...")
    _request_run(submission)
    report.runs_retried.append(submission.pk)


def _lock_if_still(submission_id: int, outcome: str) -> Submission | None:
    """The submission, locked for this transaction (PostgreSQL: other sweeps skip it; SQLite:
    writers queue), if it still has `outcome`."""
    return (Submission.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("part__exercise", "course", "student")
            .filter(pk=submission_id, outcome=outcome).first())


def _latest_run(submission: Submission) -> LabRun | None:
    return submission.lab_runs.order_by("-queued_at", "-pk").first()


def _request_run(submission: Submission) -> None:
    variant = variant_for(student=submission.student, course=submission.course,
                          exercise=submission.part.exercise)
    prediction_submit(submission=submission, params=variant.params)
