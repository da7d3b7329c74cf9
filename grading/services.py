"""Writes for grading: store a submission first, then grade it; regrade after a spec fix.

`submission_create` commits the raw answer before any grader code runs, so a grader crash
or a worker dying never loses what the student typed: the row stays, with outcome `error`
(or `pending`), and `submission_grade` can be run again.
"""

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.metrics import observe_submission_grade
from courses.models import Course, Enrollment, Exercise, Part
from grading.checkers import GRADER_VERSION, answer_key, grade
from grading.deadlines import deadline_status
from grading.events import grade_changed_record, submission_graded_record
from grading.lab_graded import lab_graded, lab_grading_submit
from grading.models import PartProgress, Submission
from grading.progress import answer_digest, progress_for_update, progress_refresh
from grading.variant_assignment import variant_for

logger = logging.getLogger(__name__)

#: Longest answer accepted, by the pages and the API alike (the maths reader refuses more than
#: 500 characters itself; explanations may be longer).
MAX_ANSWER = 5000

GRADED = Submission.GRADED_OUTCOMES
#: Outcomes that use up an attempt (invalid input and grader errors never do).
CHARGED = (*GRADED, Submission.Outcome.REVIEW, Submission.Outcome.PENDING)


class SubmissionRefused(Exception):
    """The answer was not accepted (not enrolled, no attempts left, part archived)."""


@dataclass(frozen=True)
class AttemptState:
    used: int
    limit: int  # 0 = unlimited
    solved: bool

    @property
    def left(self) -> int | None:
        return None if self.limit == 0 else max(0, self.limit - self.used)


def attempt_state(*, student: User, course: Course, part: Part) -> AttemptState:
    """How many attempts the student has used on the part, out of how many, and if solved
    (one query: the progress row, whatever the number of earlier answers)."""
    row = PartProgress.objects.filter(course=course, student=student, part=part).values_list(
        "attempts", "solved").first()
    used, solved = row if row is not None else (0, False)
    return AttemptState(used=used, limit=part.exercise.max_attempts, solved=solved)


def attempt_state_from(submissions: Iterable[Submission], *, max_attempts: int) -> AttemptState:
    """`attempt_state` computed from submissions already loaded (no query): those that count
    as an attempt are the attempts used; one of them correct means solved."""
    counted = [s.outcome for s in submissions if s.counts_as_attempt]
    return AttemptState(used=len(counted), limit=max_attempts,
                        solved=Submission.Outcome.CORRECT in counted)


def submission_create(
    *, student: User, course: Course, part: Part, raw_answer: str,
    on_stored: Callable[[Submission], None] | None = None,
) -> Submission:
    """Store `raw_answer` exactly as typed, then grade it and store the verdict.

    Raises SubmissionRefused, storing nothing, when the student is not an active member of
    the course, the part is archived, the deadline has passed, the part is already solved
    (a correct answer counted), or no attempts are left. Never raises because of the
    grader: a grader exception is stored as outcome `error` with the answer kept.
    `on_stored(submission)` runs inside the transaction that stores the answer.
    """
    if not isinstance(raw_answer, str):
        raise SubmissionRefused("The answer must be text.")
    with transaction.atomic(durable=True):
        enrolled = Enrollment.objects.filter(user=student, course=course, is_active=True).exists()
        if not enrolled:
            raise SubmissionRefused("You are not enrolled in this course.")
        if part.archived_at is not None or part.exercise.archived_at is not None:
            raise SubmissionRefused("This question has been withdrawn.")
        if part.exercise.module_id != course.module_id:
            raise SubmissionRefused("This question is not part of this course.")
        _refuse_after_deadline(student=student, course=course, exercise=part.exercise)
        # The progress row is locked until commit: concurrent answers of this student to this
        # part are checked one after the other. Answers stored but not graded yet count
        # against the limit, so two in flight cannot both take the last attempt.
        row = progress_for_update(course_id=course.pk, student_id=student.pk, part_id=part.pk)
        state = AttemptState(used=row.attempts + row.ungraded, limit=part.exercise.max_attempts,
                             solved=row.solved)
        if state.solved:
            raise SubmissionRefused("You have already solved this question; your correct "
                                    "answer is kept.")
        if state.left == 0:
            raise SubmissionRefused("You have used all your attempts for this question.")
        variant = variant_for(student=student, course=course, exercise=part.exercise)
        submission = Submission.objects.create(
            student=student, course=course, part=part, raw_answer=raw_answer,
            variant_seed=variant.seed, outcome=Submission.Outcome.PENDING,
        )
        progress_refresh(course_id=course.pk, student_id=student.pk, part_id=part.pk)
        if on_stored is not None:
            on_stored(submission)
    return submission_grade(submission=submission)


def _refuse_after_deadline(*, student: User, course: Course, exercise: Exercise) -> None:
    status = deadline_status(student=student, course=course, exercise=exercise)
    if status is not None and status.closed(timezone.now()):
        due = status.local(status.due_at)
        shown = due.strftime("%d %b %Y, %H:%M ") + status.policy.time_zone if due else ""
        late = (f" (late answers were taken until "
                f"{status.local(status.closes_at):%d %b %Y, %H:%M})"
                if status.closes_at != status.due_at else "")
        raise SubmissionRefused(
            f"The deadline for this exercise was {shown}{late}; answers are no longer "
            "accepted. Ask your instructor if you need an extension."
        )


def _late_adjusted(submission: Submission, score: float | None,
                   feedback: str) -> tuple[float | None, str]:
    """The score and feedback of an answer stored after its deadline, within the course's late
    window: the late penalty applied and said (on time: unchanged)."""
    status = deadline_status(student=submission.student, course=submission.course,
                             exercise=submission.part.exercise)
    if status is None or not status.late(submission.created_at):
        return score, feedback
    note = status.late_note(submission.created_at)
    if score is not None:
        score *= status.late_factor(submission.created_at)
    return score, f"{feedback} {note}".strip()


@observe_submission_grade
def submission_grade(*, submission: Submission) -> Submission:
    """Grade a stored submission with the current spec and store the verdict.

    Invalid input does not count as an attempt; nor does an answer equal (in canonical
    form) to one the student already submitted for the part. The score carries the
    exercise's penalty per extra attempt. Parts that compare a prediction with a lab run
    are stored as pending and a run is requested.
    """
    part = submission.part
    exercise = part.exercise
    variant = variant_for(student=submission.student, course=submission.course, exercise=exercise)
    try:
        result = grade(submission.raw_answer, part.spec, variant.params)
    except Exception:  # the grader's failure must never lose or block the student's answer
        logger.exception("grader failed on submission %s", submission.pk)
        submission.grading_failures += 1
        return _store(submission, outcome=Submission.Outcome.ERROR, score=None, canonical="",
                      feedback="Something went wrong while grading. Your answer is saved and "
                               "will be graded again; this did not use an attempt.",
                      misconception="", counts=False)
    submission.grading_failures = 0

    outcome = Submission.Outcome(result.outcome)  # the checkers speak the same vocabulary
    if outcome == Submission.Outcome.INVALID:
        return _store(submission, outcome=outcome, score=None, canonical="",
                      feedback=result.feedback, misconception="", counts=False)

    earlier = Submission.objects.filter(
        student=submission.student, course=submission.course, part=part,
        counts_as_attempt=True, pk__lt=submission.pk,
    )
    key = answer_digest(answer_key(submission.raw_answer, part.spec))
    submission.answer_key = key
    # Two indexed lookups, whatever the history: the repeated-answer check on
    # (student, part, answer_key) and the attempts counted before this one.
    repeats = Submission.objects.filter(
        student=submission.student, course=submission.course, part=part,
        counts_as_attempt=True, answer_key=key).exclude(pk=submission.pk)
    if key and repeats.exists():
        # Scored as the latest attempt, so resubmitting a right answer cannot undo a penalty.
        attempts_used = earlier.count()
        return _store(submission, outcome=outcome,
                      score=penalised(_score_or_none(result.score), exercise.penalty,
                                      max(1, attempts_used)),
                      canonical=result.canonical,
                      feedback=f"{result.feedback} You submitted this answer before; "
                               "it did not use another attempt.".strip(),
                      misconception=result.misconception or "", counts=False)

    attempt_number = earlier.count() + 1
    score = penalised(_score_or_none(result.score), exercise.penalty, attempt_number)
    score, feedback = _late_adjusted(submission, score, result.feedback)
    if lab_graded(part.spec) and outcome != Submission.Outcome.REVIEW:
        _store(submission, outcome=Submission.Outcome.PENDING, score=None,
               canonical=result.canonical, feedback="Prediction recorded. Running the lab...",
               misconception="", counts=True)
        return lab_grading_submit(submission, variant.params)
    return _store(submission, outcome=outcome, score=score, canonical=result.canonical,
                  feedback=feedback, misconception=result.misconception or "",
                  counts=True)


def penalised(score: float | None, penalty: float, attempt_number: int) -> float | None:
    """`score` less `penalty` for each attempt before `attempt_number` (never below 0)."""
    if score is None or not penalty:
        return score
    return score * max(0.0, 1.0 - penalty * (attempt_number - 1))


def _score_or_none(score: Any) -> float | None:
    return None if score is None else float(score)


def _store(submission: Submission, *, outcome: str, score: float | None, canonical: str,
           feedback: str, misconception: str, counts: bool) -> Submission:
    submission.outcome = outcome
    submission.score = score
    submission.canonical = canonical[:2000]
    submission.feedback = feedback
    submission.misconception = misconception
    submission.counts_as_attempt = counts
    submission.grader_version = GRADER_VERSION
    submission.graded_at = timezone.now()
    with transaction.atomic():
        submission.save(update_fields=[
            "outcome", "score", "canonical", "feedback", "misconception", "counts_as_attempt",
            "grader_version", "graded_at", "grading_failures", "answer_key",
        ])
        progress_refresh(course_id=submission.course_id, student_id=submission.student_id,
                         part_id=submission.part_id)
        if outcome in GRADED:  # the webhook outbox row commits with the grade
            submission_graded_record(submission)
        elif outcome == Submission.Outcome.REVIEW:  # the LMS shows it awaits a person
            grade_changed_record(course_id=submission.course_id,
                                 student_id=submission.student_id,
                                 exercise_id=submission.part.exercise_id, reason="review-pending")
    return submission
