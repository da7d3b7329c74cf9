"""Retention: after a course ends, raw answers, lab runs and webhook delivery logs are kept
only as long as the settings say, then removed; scores and verdicts stay.

RETENTION_RAW_ANSWERS_DAYS (answer text, how it was read, feedback, review comments, exam
answers' text and feedback; the course's progress rows and wrong-answer sums, which quote
answers as read, are rebuilt),
RETENTION_LAB_RUNS_DAYS (runs and their results) and RETENTION_DELIVERY_LOGS_DAYS (webhook
deliveries that are no longer pending) count days from the course's `ends_at`; None keeps
forever, and a course without an end date keeps everything. A periodic task applies them;
`manage.py apply_retention --dry-run` reports what would go.
"""

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from courses.models import Course
from events.models import WebhookDelivery
from exams.models import Answer as ExamAnswer
from grading.models import Review, Submission
from grading.progress_rebuild import progress_rebuild
from labs.models import LabRun


@dataclass
class RetentionReport:
    """How many rows each rule removed (or would remove, in a dry run)."""

    raw_answers: int = 0
    exam_answers: int = 0
    review_comments: int = 0
    lab_runs: int = 0
    delivery_logs: int = 0
    dry_run: bool = False
    periods: dict[str, int | None] = field(default_factory=dict)

    def lines(self) -> list[str]:
        verb = "would remove" if self.dry_run else "removed"
        return [f"{verb} the text of {self.raw_answers} answer(s) and {self.review_comments} "
                f"review comment(s)",
                f"{verb} the text of {self.exam_answers} exam answer(s)",
                f"{verb} {self.lab_runs} lab run(s)",
                f"{verb} {self.delivery_logs} webhook delivery log(s)"]


def _days(name: str) -> int | None:
    value = getattr(settings, name, None)
    return None if value is None else int(value)


def _ended_before(prefix: str, days: int | None, now: datetime) -> Q | None:
    if days is None:
        return None
    return Q(**{f"{prefix}ends_at__isnull": False, f"{prefix}ends_at__lt": now - timedelta(days=days)})


def _apply(rows: QuerySet[Any], dry_run: bool, **changes: Any) -> int:
    if dry_run:
        return rows.count()
    if changes:
        return rows.update(**changes)
    deleted, _ = rows.delete()
    return deleted


def retention_apply(*, dry_run: bool = False, now: datetime | None = None) -> RetentionReport:
    """Apply the retention settings (see the module); with `dry_run`, only count."""
    now = now or timezone.now()
    periods = {name: _days(name) for name in ("RETENTION_RAW_ANSWERS_DAYS",
                                             "RETENTION_LAB_RUNS_DAYS",
                                             "RETENTION_DELIVERY_LOGS_DAYS")}
    report = RetentionReport(dry_run=dry_run, periods=periods)
    with transaction.atomic():
        answers = _ended_before("course__", periods["RETENTION_RAW_ANSWERS_DAYS"], now)
        if answers is not None:
            texts = Submission.objects.filter(answers).exclude(raw_answer="", canonical="",
                                                               feedback="")
            courses = [] if dry_run else list(texts.values_list("course_id", flat=True)
                                              .distinct().order_by("course_id"))
            report.raw_answers = _apply(texts, dry_run, raw_answer="", canonical="", feedback="")
            for course_id in courses:
                # The kept progress rows and wrong-answer sums quote answers as they were
                # read: rebuilt from the emptied answers, they keep only counts and scores.
                progress_rebuild(course=Course(pk=course_id))  # only its key is used
            comments = Review.objects.filter(submission__in=Submission.objects.filter(answers))
            comments = comments.exclude(comment="")
            report.review_comments = _apply(comments, dry_run, comment="")
            exam_texts = ExamAnswer.objects.filter(
                _ended_before("attempt__course__", periods["RETENTION_RAW_ANSWERS_DAYS"], now)
            ).exclude(raw="", feedback="")
            report.exam_answers = _apply(exam_texts, dry_run, raw="", feedback="")
        runs = _ended_before("course__", periods["RETENTION_LAB_RUNS_DAYS"], now)
        if runs is not None:
            report.lab_runs = _apply(LabRun.objects.filter(runs), dry_run)
        logs = _ended_before("subscription__course__", periods["RETENTION_DELIVERY_LOGS_DAYS"], now)
        if logs is not None:
            finished = WebhookDelivery.objects.filter(logs).exclude(
                status=WebhookDelivery.Status.PENDING)
            report.delivery_logs = _apply(finished, dry_run)
    return report
