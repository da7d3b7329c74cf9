"""The answer path as it was before issue 21 (main at e3df513), kept runnable as the
benchmark's baseline (tests/benchmarks/test_answer_path.py): the progress row refreshed
twice by re-aggregation, the variant drawn twice here, the answer parsed twice. Not used
by the service.
"""

# ruff: noqa
# mypy: ignore-errors
import logging
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from courses.models import Course, Enrollment, Exercise, Part
from grading.checkers import GRADER_VERSION, answer_key, grade
from grading.deadlines import deadline_for
from grading.events import grade_changed_record, submission_graded_record
from grading.lab_graded import lab_graded, lab_grading_submit
from grading.models import Submission
from grading.progress_locks import progress_locked
from grading.progress import answer_digest, progress_refresh
from grading.penalty import penalised
from grading.services import GRADED, AttemptState, SubmissionRefused
from grading.variant_assignment import variant_for

logger = logging.getLogger(__name__)


def legacy_submission_create(
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
        row = progress_locked(course_id=course.pk, student_id=student.pk, part_id=part.pk)
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
    return legacy_submission_grade(submission=submission)


def _refuse_after_deadline(*, student: User, course: Course, exercise: Exercise) -> None:
    due = deadline_for(student=student, course=course, exercise=exercise)
    if due is not None and timezone.now() > due:
        shown = timezone.localtime(due).strftime("%Y-%m-%d %H:%M %Z")
        raise SubmissionRefused(
            f"The deadline for this exercise was {shown}; answers are no longer accepted. "
            "Ask your instructor if you need an extension."
        )


def legacy_submission_grade(*, submission: Submission) -> Submission:
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
    if lab_graded(part.spec) and outcome != Submission.Outcome.REVIEW:
        _store(submission, outcome=Submission.Outcome.PENDING, score=None,
               canonical=result.canonical, feedback="Prediction recorded. Running the lab...",
               misconception="", counts=True)
        return lab_grading_submit(submission, variant.params)
    return _store(submission, outcome=outcome, score=score, canonical=result.canonical,
                  feedback=result.feedback, misconception=result.misconception or "",
                  counts=True)


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
