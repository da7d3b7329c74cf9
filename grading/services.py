"""The answer path: store a submission first, then grade it.

`submission_create` commits the raw answer before any grader code runs, so a grader crash
or a worker dying never loses what the student typed: the row stays, with outcome `error`
(or `pending`), and `submission_grade` can be run again (the recovery sweep does). Each of
the two transactions locks the progress row once and moves it by difference (one more
stored answer; then its verdict, through grading/verdicts.py); the variant is drawn once
and the answer read once per request.
"""

import functools
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.content_cache import content_cached
from core.metrics import observe_submission_grade
from core.sql import row_insert
from courses.models import Course, Enrollment, Exercise, Part
from grading.carried_answers import carrying_parts, part_grade
from grading.course_dates import ExerciseDates, exercise_dates
from grading.deadlines import (
    UNREAD,
    DeadlineStatus,
    deadline_policy_of,
    deadline_status,
    policy_zone,
)
from grading.lab_graded import lab_graded, lab_grading_submit
from grading.models import PartProgress, Submission
from grading.penalty import penalised
from grading.progress import (
    answer_digest,
    progress_answer_stored,
    progress_is_latest,
)
from grading.progress_locks import progress_locked_for_answer, progress_locked_for_verdict
from grading.regrade import carried_parts_regrade
from grading.variant_assignment import Variant, variant_for
from grading.verdicts import ONE_MORE_FAILURE, NewVerdict, Why, verdict_record

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
    enrollment: Enrollment | None = None, variant: Variant | None = None,
    dates: ExerciseDates | None = None,
) -> Submission:
    """Store `raw_answer` exactly as typed and commit, then grade it and store the verdict.

    Raises SubmissionRefused, storing nothing, when the student is not an active member of
    the course, the part is archived, the deadline has passed, the part is already solved
    (a correct answer counted), or no attempts are left. Never raises because of the
    grader: a grader exception is stored as outcome `error` with the answer kept.
    The same text as the student's latest answer to the part, sent again within
    SUBMISSION_RECOVERY_SECONDS (a retry after an error page), stores nothing and returns
    that first copy, graded or still pending: a retry never spends a second attempt.
    `on_stored(submission)` runs inside the transaction that stores the answer.

    `enrollment` (the student's active enrolment in `course`) and `variant` (theirs for
    the part's exercise), when the caller has read them already, save those reads; the
    part should come with its exercise (select_related). So do `dates`, the exercise's
    dates in the course as `exercise_dates` gives them, when the caller read them with the
    part (None: read here; an exercise outside the course is refused).
    """
    if not isinstance(raw_answer, str):
        raise SubmissionRefused("The answer must be text.")
    exercise = part.exercise
    if part.archived_at is not None or exercise.archived_at is not None:
        raise SubmissionRefused("This question has been withdrawn.")
    # The module's place in the course: one read, which also gives its release date and the
    # exercise's due date (its own deadline, else the module's default), passed to the
    # deadline check, which then need not read it.
    link = dates or exercise_dates(course_id=course.pk, module_id=exercise.module_id,
                                   exercise_id=exercise.pk)
    if link is None:
        raise SubmissionRefused("This question is not part of this course.")
    release_at, module_due, own_due = link
    due = own_due if own_due is not None else module_due
    _refuse_before_release(course=course, release_at=release_at)
    if variant is None:
        variant = variant_for(student=student, course=course, exercise=exercise)
    with transaction.atomic(durable=True):
        if not _enrolled(student, course, enrollment):
            raise SubmissionRefused("You are not enrolled in this course.")
        deadline = _refuse_after_deadline(student=student, course=course, exercise=exercise,
                                          due=due)
        # The progress row is locked until commit: concurrent answers of this student to this
        # part are checked one after the other. Answers stored but not graded yet count
        # against the limit, so two in flight cannot both take the last attempt. The same
        # statement finds the latest answer if it is this very text sent moments ago.
        since = timezone.now() - timedelta(seconds=settings.SUBMISSION_RECOVERY_SECONDS)
        row = progress_locked_for_answer(course_id=course.pk, student_id=student.pk,
                                         part_id=part.pk, raw_answer=raw_answer, since=since)
        resent_id = getattr(row, "resent", None)
        if resent_id is not None:
            resent = Submission.objects.select_related("part__exercise").get(pk=resent_id)
            if on_stored is not None:
                on_stored(resent)
            return resent
        state = AttemptState(used=row.attempts + row.ungraded, limit=exercise.max_attempts,
                             solved=row.solved)
        if state.solved:
            raise SubmissionRefused("You have already solved this question; your correct "
                                    "answer is kept.")
        if state.left == 0:
            raise SubmissionRefused("You have used all your attempts for this question.")
        submission = Submission(student=student, course=course, part=part,
                                raw_answer=raw_answer, variant_seed=variant.seed,
                                outcome=Submission.Outcome.PENDING)
        row_insert(submission)  # Submission.objects.create, without the ORM's compilation
        stored_as = progress_answer_stored(row=row, created_at=submission.created_at,
                                           seed=variant.seed, parameters=exercise.parameters)
        if on_stored is not None:
            on_stored(submission)
    return submission_grade(submission=submission, variant=variant, stored_as=stored_as,
                            deadline=deadline)


def _enrolled(student: User, course: Course, enrollment: Enrollment | None) -> bool:
    if enrollment is not None and enrollment.user_id == student.pk \
            and enrollment.course_id == course.pk:
        return enrollment.is_active
    return Enrollment.objects.filter(user=student, course=course, is_active=True).exists()


def _refuse_before_release(*, course: Course, release_at: datetime | None) -> None:
    """Refuse an answer to a module of the course that students do not see yet."""
    if release_at is not None and release_at > timezone.now():
        policy = deadline_policy_of(course=course)
        shown = timezone.localtime(release_at, policy_zone(policy)).strftime("%d %b %Y, %H:%M")
        raise SubmissionRefused(
            f"This module opens on {shown} ({policy.time_zone}); answers are accepted from "
            "then.")


def _refuse_after_deadline(*, student: User, course: Course, exercise: Exercise,
                           due: datetime | object | None = UNREAD) -> DeadlineStatus | None:
    """Refuse an answer after the student's deadline (and late window); else return that
    deadline (None: the exercise has none), for the verdict's late penalty."""
    status = deadline_status(student=student, course=course, exercise=exercise, due=due)
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
    return status


def _late_adjusted(submission: Submission, score: float | None, feedback: str,
                   deadline: DeadlineStatus | object | None = UNREAD,
                   ) -> tuple[float | None, str]:
    """The score and feedback of an answer stored after its deadline, within the course's late
    window: the late penalty applied and said (on time: unchanged). `deadline`: the
    student's deadline on the exercise when the caller has read it (None: none)."""
    status = deadline_status(student=submission.student, course=submission.course,
                             exercise=submission.part.exercise) if deadline is UNREAD \
        else cast(DeadlineStatus | None, deadline)
    if status is None or not status.late(submission.created_at):
        return score, feedback
    note = status.late_note(submission.created_at)
    if score is not None:
        score *= status.late_factor(submission.created_at)
    return score, f"{feedback} {note}".strip()


@observe_submission_grade
def submission_grade(*, submission: Submission, variant: Variant | None = None,
                     stored_as: int | None = None,
                     deadline: DeadlineStatus | object | None = UNREAD) -> Submission:
    """Grade a stored submission with the current spec and store the verdict.

    Invalid input does not count as an attempt; nor does an answer equal (in canonical
    form) to one the student already submitted for the part. The score carries the
    exercise's penalty per extra attempt. Parts that compare a prediction with a lab run
    are stored as pending and a run is requested.

    `variant`: the student's, when the caller drew it; `stored_as`: what
    `progress_answer_stored` returned when this request stored the answer (the verdict is
    then applied to the progress row by difference if the answer is still the latest);
    `deadline`: the student's deadline on the exercise as the request read it when storing
    the answer (None: none), which sets the late penalty without reading it again.
    """
    part = submission.part
    exercise = part.exercise
    if variant is None:
        variant = variant_for(student=submission.student, course=submission.course,
                              exercise=exercise)
    try:
        result, key_text = part_grade(raw=submission.raw_answer, part=part,
                                      params=variant.params, student_id=submission.student_id,
                                      course_id=submission.course_id,
                                      submission_id=submission.pk)
    except Exception:  # the grader's failure must never lose or block the student's answer
        logger.exception("grader failed on submission %s", submission.pk)
        with transaction.atomic():
            verdict_record(submission=submission, why=Why.ANSWER, verdict=NewVerdict(
                outcome=Submission.Outcome.ERROR, score=None, canonical="", counts=False,
                feedback="Something went wrong while grading. Your answer is saved and "
                         "will be graded again; this did not use an attempt.",
                grading_failures=ONE_MORE_FAILURE))
        return submission

    outcome = Submission.Outcome(result.outcome)  # the checkers speak the same vocabulary
    key = answer_digest(key_text)
    lab_part = lab_graded(part.spec) and outcome != Submission.Outcome.REVIEW
    with transaction.atomic():
        # One lock of the progress row, which also says whether this answer repeats a
        # counted earlier one (same answer key).
        row = progress_locked_for_verdict(course_id=submission.course_id,
                                          student_id=submission.student_id, part_id=part.pk,
                                          answer_key=key, submission_id=submission.pk)
        latest = progress_is_latest(row, stored_as)
        done = functools.partial(verdict_record, submission=submission, why=Why.ANSWER)
        if outcome == Submission.Outcome.INVALID:
            done(verdict=NewVerdict(outcome=outcome, score=None, canonical="", counts=False,
                                    feedback=result.feedback, grading_failures=0))
            return submission
        # Attempts counted before this one: the row's when this answer is the latest one.
        attempts_before = row.attempts if latest else Submission.objects.filter(
            student_id=submission.student_id, course_id=submission.course_id, part_id=part.pk,
            counts_as_attempt=True, pk__lt=submission.pk).count()
        if key and getattr(row, "repeated", False):
            # Scored as the latest attempt, so resubmitting a right answer cannot undo a penalty.
            done(verdict=NewVerdict(
                outcome=outcome, canonical=result.canonical, counts=False, answer_key=key,
                score=penalised(_score_or_none(result.score), exercise.penalty,
                                max(1, attempts_before)),
                feedback=f"{result.feedback} You submitted this answer before; "
                         "it did not use another attempt.".strip(),
                misconception=result.misconception or "", grading_failures=0))
            return submission
        if lab_part:
            done(verdict=NewVerdict(
                outcome=Submission.Outcome.PENDING, score=None, canonical=result.canonical,
                feedback="Prediction recorded. Running the lab...", counts=True,
                answer_key=key, grading_failures=0))
        else:
            score, feedback = _late_adjusted(
                submission, penalised(_score_or_none(result.score), exercise.penalty,
                                      attempts_before + 1), result.feedback, deadline)
            done(verdict=NewVerdict(
                outcome=outcome, canonical=result.canonical, counts=True, answer_key=key,
                score=score, feedback=feedback, misconception=result.misconception or "",
                grading_failures=0))
            if _carried(part):
                carried_parts_regrade(submission=submission)  # later parts use this answer
            return submission
    return lab_grading_submit(submission, variant.params)


def _carried(part: Part) -> bool:
    """Whether a later part of the exercise may use this part's answer (content: cached)."""
    return content_cached(f"carried-after:{part.pk}:{part.order}",
                          lambda: carrying_parts(part).exists())


def _score_or_none(score: Any) -> float | None:
    return None if score is None else float(score)
