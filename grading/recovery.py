"""Finishing answers that a crash left half done, so that no stored answer waits forever.

An answer is stored before it is graded (grading/services.py). A process that dies between
those steps leaves the submission "pending" with nothing left to move it on; a grader that
crashes leaves it "error". The sweep, run by Celery beat and on worker start, finds them
once they are older than any request takes and:

- grades an answer that was never graded;
- grades again an answer the grader crashed on: up to MAX_GRADING_RETRIES times with one
  grader version, and once more whenever a new GRADER_VERSION is deployed.

Lab-graded parts (predictions) are left to labs/recovery.py. A submission that cannot be
recovered (its grading crashes again) is logged and skipped; the sweep goes on.
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
from grading.services import submission_grade

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
    regraded_after_error: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.graded) + len(self.regraded_after_error)


def submissions_recover(*, older_than: timedelta = STALE_AFTER,
                        now: datetime | None = None) -> RecoveryReport:
    """Move on every answer abandoned for longer than `older_than` (see the module).

    Safe to run at any time and in several workers at once: each submission is locked and
    re-read in its own transaction, and skipped unless still in the state it was found in.
    """
    cutoff = (now or timezone.now()) - older_than
    report = RecoveryReport()
    answers = Submission.objects.exclude(part__spec__has_key="lab")
    pending = answers.filter(outcome=Submission.Outcome.PENDING, created_at__lt=cutoff)
    for submission_id in pending.order_by("pk").values_list("pk", flat=True):
        done = recover_one(submission_id, Submission.Outcome.PENDING,
                           lambda s: submission_grade(submission=s))
        if done is not None:
            (report.graded if done else report.failed).append(submission_id)
    crashed = answers.filter(
        Q(grading_failures__lte=MAX_GRADING_RETRIES) | ~Q(grader_version=GRADER_VERSION),
        outcome=Submission.Outcome.ERROR, grading_failures__gt=0, graded_at__lt=cutoff,
    )
    for submission_id in crashed.order_by("pk").values_list("pk", flat=True):
        done = recover_one(submission_id, Submission.Outcome.ERROR,
                           lambda s: submission_grade(submission=s))
        if done is not None:
            (report.regraded_after_error if done else report.failed).append(submission_id)
    if report.total or report.failed:
        logger.warning("recovered abandoned submissions: %s", report)
    return report


def recover_one(submission_id: int, outcome: str,
                recover: Callable[[Submission], object]) -> bool | None:
    """Lock the submission if it still has `outcome` and run `recover` on it in its own
    transaction: True when it ran, None when the submission had moved on (or another sweep
    holds it), False (logged) when `recover` raised."""
    try:
        with transaction.atomic():
            submission = (Submission.objects.select_for_update(skip_locked=True, of=("self",))
                          .select_related("part__exercise", "course", "student")
                          .filter(pk=submission_id, outcome=outcome).first())
            if submission is None:
                return None
            recover(submission)
    except Exception:  # one broken submission must not stop the sweep for the others
        logger.exception("could not recover submission %s", submission_id)
        return False
    return True
