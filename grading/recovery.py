"""Finishing submissions that a crash left half done, so that no stored answer waits forever.

An answer is stored before it is graded (grading/services.py), and a prediction is graded only
when its lab run finishes (grading/predictions.py). A process that dies between those steps
leaves the submission "pending" with nothing left to move it on. The sweep, run by Celery beat
and on worker start, finds submissions pending for longer than any request takes and:

- grades an ordinary answer that was never graded;
- requests the lab run of a prediction that has none;
- grades a prediction whose run finished but whose grading hook was lost;
- runs the lab again for a prediction whose run failed, up to MAX_PREDICTION_RUNS runs;
- grades again an answer the grader crashed on (outcome "error"): up to MAX_GRADING_RETRIES
  times with one grader version, and once more whenever a new GRADER_VERSION is deployed.

Predictions whose run is still queued or running are left to the lab run sweeper. A
submission that cannot be recovered (its grading crashes again) is logged and skipped; the
sweep goes on with the others.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from grading.checkers import GRADER_VERSION
from grading.models import Submission
from grading.predictions import MAX_PREDICTION_RUNS, prediction_submit, predictions_grade_for_run
from grading.services import submission_grade
from grading.variant_assignment import variant_for
from labs.models import LabRun

logger = logging.getLogger(__name__)

#: A submission pending this long was abandoned: grading takes well under a second and a web
#: request is cut off long before this.
STALE_AFTER = timedelta(seconds=getattr(settings, "SUBMISSION_RECOVERY_SECONDS", 120))
#: An answer the grader failed on is graded again at most this many times per grader version.
MAX_GRADING_RETRIES = 3


@dataclass
class RecoveryReport:
    """The ids of the submissions each kind of recovery touched."""

    graded: list[int] = field(default_factory=list)
    runs_requested: list[int] = field(default_factory=list)
    predictions_graded: list[int] = field(default_factory=list)
    runs_retried: list[int] = field(default_factory=list)
    regraded_after_error: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)

    @property
    def total(self) -> int:
        return (len(self.graded) + len(self.runs_requested) + len(self.predictions_graded)
                + len(self.runs_retried) + len(self.regraded_after_error))


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
        _recover_one(submission_id, Submission.Outcome.PENDING, report,
                     lambda s: _recover_pending(s, cutoff, report))
    failed_predictions = Submission.objects.filter(
        outcome=Submission.Outcome.ERROR, created_at__lt=cutoff, grading_failures=0,
        lab_runs__status=LabRun.Status.FAILED,
    ).distinct().order_by("pk")
    for submission_id in failed_predictions.values_list("pk", flat=True):
        _recover_one(submission_id, Submission.Outcome.ERROR, report,
                     lambda s: _retry_failed_prediction(s, report))
    crashed = Submission.objects.filter(
        Q(grading_failures__lte=MAX_GRADING_RETRIES) | ~Q(grader_version=GRADER_VERSION),
        outcome=Submission.Outcome.ERROR, grading_failures__gt=0, graded_at__lt=cutoff,
    ).order_by("pk")
    for submission_id in crashed.values_list("pk", flat=True):
        _recover_one(submission_id, Submission.Outcome.ERROR, report,
                     lambda s: _regrade_after_error(s, report))
    if report.total or report.failed:
        logger.warning("recovered abandoned submissions: %s", report)
    return report


def _recover_one(submission_id: int, outcome: str, report: RecoveryReport,
                 recover: Callable[[Submission], None]) -> None:
    """Lock the submission if it still has `outcome` and recover it in its own transaction;
    an exception is logged and recorded, and the sweep goes on."""
    try:
        with transaction.atomic():
            submission = _lock_if_still(submission_id, outcome)
            if submission is not None:
                recover(submission)
    except Exception:  # one broken submission must not stop the sweep for the others
        logger.exception("could not recover submission %s", submission_id)
        report.failed.append(submission_id)


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


def _regrade_after_error(submission: Submission, report: RecoveryReport) -> None:
    if submission.part.spec.get("lab"):
        latest = _latest_run(submission)
        if latest is None or latest.status != LabRun.Status.SUCCEEDED:
            return  # the run itself failed: the failed-prediction path decides
        Submission.objects.filter(pk=submission.pk).update(outcome=Submission.Outcome.PENDING)
        predictions_grade_for_run(run_id=latest.pk)
    else:
        submission_grade(submission=submission)
    report.regraded_after_error.append(submission.pk)


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
