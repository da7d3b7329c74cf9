"""The one writer of assessment scores (`AssessmentScore`): a student's score on an
assessment in a course, kept as their attempts close and reopen and as the feedback is
released, and the "assessment.score_released" event when the score a student (and the LMS)
may see changes.

Exam answers are not Submissions: they are graded once when their attempt closes
(exams/grading.py), so they never pass through grading's verdict writer or its progress
rows. This module is their counterpart: every change to an attempt's score (exams/services.py
closing it, exams/staff.py reopening it) and every change to what the release rule shows
(a release, the window's close, swept by exams/tasks.py) calls `assessment_scores_refresh`
inside the transaction that made the change. It recomputes the kept rows from the attempts
(the best or the last closed attempt, as the assessment counts), marks them released when
the rule shows correctness (exams/policy.feedback_released), and records the event for each
student whose released score changed, in that same transaction: the outbox's consumers
(webhooks, the LTI score passback) see a score only once it is released, once per change.
"""

import math
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from events.outbox import Event, events_record_many
from exams.models import Assessment, AssessmentScore, Attempt, Release, WindowExtension
from exams.policy import feedback_released

SCORE_RELEASED = "assessment.score_released"
#: What an assessment's score is out of outside (the LMS's line item, deep linking): papers
#: drawn from pools may differ in points, so the fraction of the student's paper in percent.
SCORE_MAXIMUM = 100.0


def _released(assessment: Assessment, course_id: int, now: datetime) -> bool:
    """Whether the rule shows the course's closed attempts' scores at `now` (two queries)."""
    release = Release.objects.filter(assessment=assessment, course_id=course_id).first()
    last_close = WindowExtension.objects.filter(
        assessment=assessment, course_id=course_id).aggregate(last=Max("closes_at"))["last"]
    return feedback_released(assessment=assessment, now=now, release=release,
                             last_close=last_close)


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=0.0, abs_tol=1e-9)


def _unchanged(before: tuple[Any, ...], after: tuple[Any, ...]) -> bool:
    return all(_same(a, b) if isinstance(a, float) or isinstance(b, float) else a == b
               for a, b in zip(before, after, strict=True))


def _counted(assessment: Assessment, rows: list[tuple[int, float | None, Any]]
             ) -> tuple[float | None, int, bool]:
    """(score, closed attempts, one open) of one student's attempts (number, score, closed)."""
    closed = sorted((number, score or 0.0) for number, score, closed_at in rows
                    if closed_at is not None)
    open_one = any(closed_at is None for _, _, closed_at in rows)
    if not closed:
        return None, 0, open_one
    if assessment.counts == Assessment.Counts.LAST:
        return closed[-1][1], len(closed), open_one
    return max(score for _, score in closed), len(closed), open_one


def assessment_scores_refresh(*, assessment: Assessment, course_id: int,
                              student_ids: Iterable[int] | None = None,
                              now: datetime | None = None) -> list[AssessmentScore]:
    """Recompute the kept scores of `student_ids` (None: every student with an attempt) on
    the assessment in the course, and record "assessment.score_released" for each whose
    released score changed. Must run inside the transaction that changed the attempts or
    the release (RuntimeError otherwise). The rows changed are returned.

    Released: the assessment's release rule shows correctness now (after the submission;
    after the window's close, extensions included; or on the instructor's release). A
    released score is sent once per change: `released_score` holds the last one sent; a
    withdrawn release hides the score again and sends nothing (the LMS keeps what it got).
    A student whose only attempt is reopened keeps the LMS's last score until it closes.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("assessment_scores_refresh must run inside the change's transaction")
    now = now or timezone.now()
    attempts = Attempt.objects.filter(assessment=assessment, course_id=course_id)
    kept = AssessmentScore.objects.select_for_update().filter(assessment=assessment,
                                                              course_id=course_id)
    if student_ids is not None:
        wanted = list(student_ids)
        attempts = attempts.filter(student_id__in=wanted)
        kept = kept.filter(student_id__in=wanted)
    by_student: dict[int, list[tuple[int, float | None, Any]]] = {}
    for student_id, number, score, closed_at in attempts.values_list(
            "student_id", "number", "score", "closed_at"):
        by_student.setdefault(student_id, []).append((number, score, closed_at))
    rows = {row.student_id: row for row in kept}
    released = _released(assessment, course_id, now) if by_student or rows else False
    changed: list[AssessmentScore] = []
    events: list[Event] = []
    for student_id in sorted(set(by_student) | set(rows)):
        score, closed, open_one = _counted(assessment, by_student.get(student_id, []))
        row = rows.get(student_id)
        if row is None:
            row = AssessmentScore(assessment=assessment, course_id=course_id,
                                  student_id=student_id, changed_at=now)
        before = (row.score, row.attempts, row.in_progress, row.released, row.released_score)
        row.score, row.attempts, row.in_progress, row.released = score, closed, open_one, released
        send = released and score is not None and not _same(row.released_score, score)
        if send:
            row.released_score = score
        after = (row.score, row.attempts, row.in_progress, row.released, row.released_score)
        if row.pk is not None and _unchanged(before, after):
            continue
        row.changed_at = now
        row.save()
        changed.append(row)
        if send:
            events.append(_event(row, assessment))
    events_record_many(events)
    return changed


def _event(row: AssessmentScore, assessment: Assessment) -> Event:
    payload = {"assessment_id": assessment.pk, "assessment": assessment.slug,
               "kind": assessment.kind, "student_id": row.student_id, "score": row.score,
               "weight": assessment.weight, "attempts": row.attempts,
               "in_progress": row.in_progress}
    return Event(name=SCORE_RELEASED, course_id=row.course_id, subject_id=row.pk,
                 build_payload=lambda: payload)


def assessment_scores_release_due(*, now: datetime | None = None) -> int:
    """Release the kept scores whose rule waited for the window's close, once it has closed
    (extensions included): the sweep's part for "after the window closes". Each assessment
    and course in its own transaction; how many rows it released."""
    now = now or timezone.now()
    due = (AssessmentScore.objects.filter(
        released=False, score__isnull=False, assessment__closes_at__lte=now,
        assessment__feedback=Assessment.Feedback.AFTER_CLOSE)
        .values_list("assessment_id", "course_id").distinct().order_by()[:200])
    released = 0
    for assessment_id, course_id in list(due):
        with transaction.atomic():
            assessment = Assessment.objects.get(pk=assessment_id)
            released += sum(row.released for row in assessment_scores_refresh(
                assessment=assessment, course_id=course_id, now=now))
    return released
