"""The verdict writer: the one place a submission's verdict, or a student's grade on a part,
changes.

Every write site calls it, inside its own transaction: an answer graded on the answer path
or by the recovery sweep (`Why.ANSWER`), a prediction graded against its lab run
(`Why.LAB`), a review (`Why.REVIEW`), a regrade (`Why.REGRADE`), a lab recovery putting a
prediction back to pending (`Why.RESET`), and an override (`grade_override_recorded`). In
that order it stores the verdict fields, refreshes the (student, part) progress row and the
student's totals once, moves the class's wrong-answer sums, and records the event the LMS
and webhooks receive. tests/grading/test_one_verdict_writer.py fails CI when any other
module writes a submission's verdict fields.
"""

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from core.sql import row_values_update
from events.outbox import Event, events_record_many
from grading.checkers import GRADER_VERSION
from grading.events import (
    grade_changed_record,
    submission_graded_event,
    submission_graded_record,
)
from grading.models import PartProgress, Submission
from grading.progress import (
    progress_is_latest_pending,
    progress_refresh,
    progress_refresh_many,
    progress_verdict_applied,
)
from grading.progress_locks import progress_locked_with_later

#: The fields of a Submission that make its verdict (only this module writes them).
VERDICT_FIELDS = ("outcome", "score", "feedback", "misconception", "canonical",
                  "counts_as_attempt", "grader_version", "graded_at", "grading_failures",
                  "answer_key")

GRADED = Submission.GRADED_OUTCOMES


class Why(Enum):
    """Why a verdict changes: it decides the event recorded."""

    ANSWER = "answer"  # first grading (answer path, recovery sweep)
    LAB = "lab"  # a prediction against what its lab run measured
    REVIEW = "review"  # a person's grade
    REGRADE = "regrade"  # the current grader on a stored answer
    RESET = "reset"  # a prediction back to pending while its lab runs again (no event)


#: grading_failures: add one (a grader crash) instead of setting a number.
ONE_MORE_FAILURE = -1


@dataclass(frozen=True)
class NewVerdict:
    """What to store. None leaves a field as it is (`canonical`, `counts`, `answer_key`,
    `grading_failures`); `by_grader` False: a person's verdict (or a reset), which keeps the
    grader version stored."""

    outcome: str
    score: float | None
    feedback: str
    misconception: str = ""
    canonical: str | None = None
    counts: bool | None = None
    answer_key: str | None = None
    grading_failures: int | None = None
    by_grader: bool = True


def verdict_record(*, submission: Submission, verdict: NewVerdict, why: Why,
                   only_if_outcome: str | None = None) -> bool:
    """Store `verdict` on `submission`, refresh its progress row and the student's totals
    once, update the wrong-answer sums and record the event `why` calls for, in that order,
    in the caller's transaction (one is opened if there is none). Returns False, changing
    nothing, when `only_if_outcome` is given and the stored outcome is another (a concurrent
    writer got there first).

    The progress row is moved by difference when that is exact, else re-aggregated: the
    writer locks the row and decides (`_by_difference`). `submission` as the caller read it
    (its part with the exercise loaded saves a query on the answer path).
    """
    with transaction.atomic(savepoint=False):  # the caller's transaction, no savepoint
        before = (submission.outcome, submission.score)
        first_verdict = submission.graded_at is None
        from_pending = why is Why.LAB and only_if_outcome == Submission.Outcome.PENDING
        # The row is locked before the submission's UPDATE, as every writer locks them.
        row = progress_locked_with_later(
            course_id=submission.course_id, student_id=submission.student_id,
            part_id=submission.part_id, submission_id=submission.pk) \
            if (why is Why.ANSWER and first_verdict) or from_pending else None
        now = timezone.now()
        fields = _stored_fields(verdict, now)
        plain = not any(hasattr(value, "resolve_expression") for value in fields.values())
        if only_if_outcome is None and plain:  # the answer path's: one uncompiled UPDATE
            changed = row_values_update(Submission, submission.pk, fields)
        else:
            stored = Submission.objects.filter(pk=submission.pk)
            if only_if_outcome is not None:
                stored = stored.filter(outcome=only_if_outcome)
            changed = stored.update(**fields)
        if not changed:
            return False
        _fields_set(submission, fields)
        if row is not None and _by_difference(row, from_pending=from_pending):
            part = submission.part
            progress_verdict_applied(
                row=row, outcome=verdict.outcome, score=verdict.score,
                counts=submission.counts_as_attempt, canonical=submission.canonical,
                misconception=submission.misconception, created_at=submission.created_at,
                graded_at=now, points=float(part.points),
                active=part.archived_at is None and part.exercise.archived_at is None,
                replaces_pending=from_pending)
        else:
            progress_refresh(course_id=submission.course_id, student_id=submission.student_id,
                             part_id=submission.part_id, row=row)
        _event(submission, why, before)
    return True


def _by_difference(row: PartProgress, *, from_pending: bool) -> bool:
    """Whether the verdict can move the locked `row` (read with `later`) by difference:
    the submission is the student's latest answer to the part (`later` false) and the row
    counts it in the state the verdict replaces. A first verdict: it is the one answer the
    row counts as ungraded (`progress_is_latest`'s rule). A lab verdict of a pending
    prediction: no answer is ungraded and the row counts one pending
    (`progress_is_latest_pending`)."""
    if from_pending:
        return progress_is_latest_pending(row)
    return not getattr(row, "later", True) and row.ungraded == 1


def verdicts_record_many(*, verdicts: list[tuple[Submission, NewVerdict]], why: Why,
                         only_if_outcome: str | None = None) -> list[Submission]:
    """`verdict_record` for many submissions of one course and part at once, each with its
    verdict: the verdicts stored (one UPDATE per distinct verdict), the progress rows and the
    students' totals refreshed once (`progress_refresh_many`), the wrong-answer sums moved
    and the events recorded together, in that order, in the caller's transaction (one is
    opened if there is none). Submissions whose stored outcome is not `only_if_outcome`
    (when given) are left unchanged. Returns those stored. A bounded number of queries
    whatever the number of submissions (for the lecture hall's reveal)."""
    if not verdicts:
        return []
    if len({(s.course_id, s.part_id) for s, _ in verdicts}) > 1:
        raise ValueError("verdicts_record_many takes submissions of one course and part")
    with transaction.atomic(savepoint=False):
        rows = Submission.objects.select_for_update().filter(pk__in=[s.pk for s, _ in verdicts])
        if only_if_outcome is not None:
            rows = rows.filter(outcome=only_if_outcome)
        open_ids = set(rows.values_list("pk", flat=True))
        now = timezone.now()
        grouped: dict[NewVerdict, list[Submission]] = {}
        for submission, verdict in verdicts:
            if submission.pk in open_ids:
                grouped.setdefault(verdict, []).append(submission)
                open_ids.discard(submission.pk)  # the same submission twice: its first verdict
        stored: list[tuple[Submission, tuple[str, float | None]]] = []
        for verdict, submissions in grouped.items():
            fields = _stored_fields(verdict, now)
            Submission.objects.filter(pk__in=[s.pk for s in submissions]).update(**fields)
            for submission in submissions:
                before = (submission.outcome, submission.score)
                _fields_set(submission, fields)
                stored.append((submission, before))
        if not stored:
            return []
        order = {s.pk: i for i, (s, _) in enumerate(verdicts)}
        stored.sort(key=lambda pair: order[pair[0].pk])
        first = stored[0][0]
        progress_refresh_many(course_id=first.course_id, part_id=first.part_id,
                              student_ids=[s.student_id for s, _ in stored])
        events_record_many([event for submission, before in stored
                            for event in _events(submission, why, before)])
    return [submission for submission, _ in stored]


def _stored_fields(verdict: NewVerdict, now: datetime) -> dict[str, Any]:
    """The Submission fields a verdict sets (`grading_failures` maybe an F expression)."""
    fields: dict[str, Any] = {"outcome": verdict.outcome, "score": verdict.score,
                              "feedback": verdict.feedback,
                              "misconception": verdict.misconception, "graded_at": now}
    if verdict.canonical is not None:
        fields["canonical"] = verdict.canonical[:2000]
    if verdict.counts is not None:
        fields["counts_as_attempt"] = verdict.counts
    if verdict.answer_key is not None:
        fields["answer_key"] = verdict.answer_key
    if verdict.by_grader:
        fields["grader_version"] = GRADER_VERSION
    if verdict.grading_failures == ONE_MORE_FAILURE:
        fields["grading_failures"] = F("grading_failures") + 1
    elif verdict.grading_failures is not None:
        fields["grading_failures"] = verdict.grading_failures
    return fields


def _fields_set(submission: Submission, fields: dict[str, Any]) -> None:
    """The stored `fields` on the in-memory `submission` too."""
    for name, value in fields.items():
        if name == "grading_failures" and not isinstance(value, int):
            submission.grading_failures += 1
        else:
            setattr(submission, name, value)


def _events(submission: Submission, why: Why, before: tuple[str, float | None]) -> list[Event]:
    """The events `_event` records for a verdict, for `events_record_many`: the same, except
    that "grade.changed" (never recorded for `Why.LAB`) is recorded at once."""
    if why in (Why.ANSWER, Why.LAB) and submission.outcome in GRADED:
        return [submission_graded_event(submission)]
    _event(submission, why, before)
    return []


def _event(submission: Submission, why: Why, before: tuple[str, float | None]) -> None:
    outcome = submission.outcome
    if why in (Why.ANSWER, Why.LAB):
        if outcome in GRADED:  # the webhook and LMS outbox rows commit with the grade
            submission_graded_record(submission)
        elif why is Why.ANSWER and outcome == Submission.Outcome.REVIEW:
            _grade_changed(submission, "review-pending")  # the LMS shows it awaits a person
    elif why is Why.REVIEW:
        submission_graded_record(submission)  # a reviewed answer is graded for the LMS
    elif why is Why.REGRADE and before != (outcome, submission.score):
        _grade_changed(submission, "regrade")


def _grade_changed(submission: Submission, reason: str) -> None:
    exercise_id = submission.part.exercise_id
    grade_changed_record(course_id=submission.course_id, student_id=submission.student_id,
                         exercise_id=exercise_id, reason=reason)


def grade_override_recorded(*, course_id: int, student_id: int, part_id: int,
                            exercise_id: int) -> None:
    """An override of the student's grade on the part was stored (grading/overrides.py):
    refresh the progress row and totals once and record "grade.changed", in the caller's
    transaction."""
    with transaction.atomic(savepoint=False):
        progress_refresh(course_id=course_id, student_id=student_id, part_id=part_id)
        grade_changed_record(course_id=course_id, student_id=student_id,
                             exercise_id=exercise_id, reason="override")
