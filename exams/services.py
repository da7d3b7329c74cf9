"""Writes for exams: starting an attempt, saving drafts as the student types, closing an
attempt (by the student, or by the server at its deadline) and grading it once.

Every write of an attempt locks its row first (`select_for_update`), so a save racing the
close either lands before the grading or is refused: a draft is never changed after it was
graded, and an attempt is graded exactly once whoever closes it (the student's submit, the
page loaded after the deadline, or the Celery sweep).
"""

import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.compiled_query import CompiledQuery
from courses.models import Course
from exams.grading import question_results
from exams.models import (
    Accommodation,
    Answer,
    Assessment,
    Attempt,
    AuditEntry,
    Question,
    WindowExtension,
)
from exams.paper import attempt_seed, paper_draw, question_params, questions_of
from exams.scores import assessment_scores_refresh
from exams.start_reads import attempts_of_student, start_facts

#: Longest draft kept for one part (as the answer path's limit).
MAX_DRAFT = 5000


class AttemptRefused(Exception):
    """The request was refused and nothing changed; the message says why, for the student."""


class AttemptClosed(AttemptRefused):
    """The attempt is closed (submitted, or its time is up): its answers can no longer change."""


@dataclass(frozen=True)
class Started:
    attempt: Attempt
    resumed: bool  # True: an attempt already in progress (perhaps in another browser)


def _local(when: datetime) -> str:
    return timezone.localtime(when).strftime("%d %b %Y, %H:%M %Z")


def accommodation_of(*, course: Course, student_id: int) -> Accommodation:
    """The student's accommodation in the course (factor 1 and no extra attempt if none)."""
    found = Accommodation.objects.filter(course=course, student_id=student_id).first()
    return found or Accommodation(course=course, student_id=student_id)


def closes_for(*, assessment: Assessment, course: Course, student_id: int) -> datetime:
    """When the window closes for the student: the assessment's close, or their extension's."""
    extension = WindowExtension.objects.filter(assessment=assessment, course=course,
                                               student_id=student_id).first()
    return max(assessment.closes_at, extension.closes_at) if extension else assessment.closes_at


def attempt_deadline(*, assessment: Assessment, started_at: datetime, time_factor: float,
                     closes_at: datetime | None = None) -> datetime:
    """The earlier of start + time limit x the student's factor, and the window's close
    (`closes_at`: the student's, when extended; the close alone for an untimed assessment)."""
    closes_at = closes_at or assessment.closes_at
    if not assessment.time_limit_minutes:
        return closes_at
    limit = timedelta(minutes=assessment.time_limit_minutes * time_factor)
    return min(started_at + limit, closes_at)


def _access_code_refused(*, code: str, given: str | None) -> bool:
    if not code:
        return False
    return not hmac.compare_digest(code.strip().lower().encode(),
                                   (given or "").strip().lower().encode())


def attempt_start(*, student: User, course: Course, assessment: Assessment,
                  now: datetime | None = None, access_code: str | None = None) -> Started:
    """Start the student's next attempt, or return the one in progress (`resumed`).

    AttemptRefused, creating nothing, when the student is not an active member of the
    course, the assessment is not part of it (or withdrawn), outside its window (the
    student's, when extended), without the proctor's access code when one is set, or no
    attempts are left. An attempt whose deadline has passed is closed and graded first.
    Two starts at once (two browsers) give one attempt: the second finds the first.
    Two compiled reads and two inserts, whatever the number of questions (start_reads).
    """
    now = now or timezone.now()
    if assessment.archived_at is not None:
        raise AttemptRefused("This assessment has been withdrawn.")
    facts = start_facts(course_id=course.pk, module_id=assessment.module_id,
                        student_id=student.pk, assessment_id=assessment.pk)
    if not facts.enrolled:
        raise AttemptRefused("You are not enrolled in this course.")
    link = facts.link
    if link is None:
        raise AttemptRefused("This assessment is not part of this course.")
    attempts = attempts_of_student(course_id=course.pk, student_id=student.pk,
                                   assessment_id=assessment.pk)
    open_one = next((a for a in attempts if a.closed_at is None), None)
    if open_one is not None:
        if open_one.deadline_at > now:
            return Started(open_one, resumed=True)
        attempt_close(attempt_id=open_one.pk, by=Attempt.ClosedBy.DEADLINE, now=now)
    if now < assessment.opens_at or (link.release_at is not None and now < link.release_at):
        raise AttemptRefused(f"This assessment opens on {_local(assessment.opens_at)}; you "
                             "can start it from then.")
    closes_at = max(assessment.closes_at, facts.extension_closes_at or assessment.closes_at)
    if now >= closes_at:
        raise AttemptRefused(f"This assessment closed on {_local(closes_at)}; it "
                             "can no longer be started.")
    if _access_code_refused(code=facts.access_code, given=access_code):
        raise AttemptRefused("That is not the access code of this assessment; ask your "
                             "proctor for it.")
    used = len(attempts)
    allowed = assessment.attempts + facts.extra_attempts
    if used >= allowed:
        raise AttemptRefused(f"You have used your {allowed} attempt"
                             f"{'s' if allowed != 1 else ''} at this assessment.")
    number = used + 1
    seed = attempt_seed(course_id=course.pk, assessment=assessment, student_id=student.pk,
                        number=number)
    paper = paper_draw(assessment=assessment, seed=seed, default_variant=facts.default_variant)
    try:
        with transaction.atomic():
            attempt = Attempt.objects.create(
                assessment=assessment, course=course, student=student, number=number,
                seed=seed, paper=paper, started_at=now,
                deadline_at=attempt_deadline(assessment=assessment, started_at=now,
                                             time_factor=facts.time_factor,
                                             closes_at=closes_at))
            AuditEntry.objects.create(course=course, assessment=assessment, attempt=attempt,
                                      actor=student, action="start",
                                      detail=f"attempt {number}, ends {_local(attempt.deadline_at)}")
    except IntegrityError:  # another request started it (or the same number) meanwhile
        other = Attempt.objects.filter(assessment=assessment, course=course, student=student,
                                       closed_at__isnull=True).first()
        if other is None:
            raise AttemptRefused("Your attempt could not be started; try again.") from None
        return Started(other, resumed=True)
    return Started(attempt, resumed=False)


def _lock(attempt_id: int) -> QuerySet[Attempt]:
    return Attempt.objects.select_for_update().filter(pk=attempt_id)


_LOCK = CompiledQuery(_lock, attempt_id=int)


def _locked(attempt_id: int) -> Attempt:
    """The attempt, its row locked until the transaction ends (one compiled query)."""
    found = _LOCK.first(attempt_id=attempt_id)
    if found is None:
        raise Attempt.DoesNotExist(f"no attempt {attempt_id}")
    return found


def drafts_save(*, attempt_id: int, student: User, drafts: dict[tuple[str, str], str],
                now: datetime | None = None) -> datetime:
    """Save the student's drafts (`(question uuid, part key) -> text as typed`) on their open
    attempt; returns when they were saved. Nothing is graded.

    AttemptClosed (saving nothing) when the attempt is closed or its deadline has passed (it
    is then closed and graded with the drafts saved before); AttemptRefused for a question
    or part that is not on the attempt's paper. Text beyond MAX_DRAFT is cut.
    """
    now = now or timezone.now()
    with transaction.atomic():
        attempt = _locked(attempt_id)
        if attempt.student_id != student.pk:
            raise AttemptRefused("This is not your attempt.")
        if attempt.closed_at is not None:
            raise AttemptClosed("This attempt is closed; your answers can no longer change.")
        expired = now >= attempt.deadline_at
        if not expired:
            _drafts_write(attempt, drafts, now)
    if expired:
        attempt_close(attempt_id=attempt_id, by=Attempt.ClosedBy.DEADLINE, now=now)
        raise AttemptClosed("The time for this attempt is up; the answers saved before "
                            "the deadline have been submitted.")
    return now


def _drafts_write(attempt: Attempt, drafts: dict[tuple[str, str], str], now: datetime) -> None:
    on_paper = {entry["question"] for entry in attempt.paper}
    questions = {str(q.uuid): q for q in Question.objects.filter(
        uuid__in=[q for q, _ in drafts if q in on_paper])}
    for question_uuid, key in drafts:
        question = questions.get(question_uuid)
        if question is None or key not in {p["key"] for p in question.parts}:
            raise AttemptRefused("That question is not on your paper.")
    existing = {(str(a.question.uuid), a.part_key): a for a in
                Answer.objects.filter(attempt=attempt).select_related("question")}
    for (question_uuid, key), raw in drafts.items():
        text = str(raw)[:MAX_DRAFT]
        answer = existing.get((question_uuid, key))
        if answer is None:
            Answer.objects.create(attempt=attempt, question=questions[question_uuid],
                                  part_key=key, raw=text, saved_at=now)
        elif answer.raw != text:
            answer.raw, answer.saved_at, answer.saves = text, now, answer.saves + 1
            answer.save(update_fields=["raw", "saved_at", "saves"])


def attempt_close(*, attempt_id: int, by: str, actor: User | None = None,
                  now: datetime | None = None) -> Attempt:
    """Close the attempt and grade its saved drafts, once: an attempt already closed is
    returned as it is. Closing `by` the deadline happens only once the deadline has passed
    (the sweep and late page loads); the student may close (submit) any time before."""
    return _close(attempt_id=attempt_id, by=by, actor=actor, now=now or timezone.now())[0]


def _close(*, attempt_id: int, by: str, actor: User | None, now: datetime
           ) -> tuple[Attempt, bool]:
    """attempt_close, saying whether this call closed it."""
    with transaction.atomic():
        attempt = _locked(attempt_id)
        if attempt.closed_at is not None:
            return attempt, False
        if by == Attempt.ClosedBy.DEADLINE and now < attempt.deadline_at:
            return attempt, False
        closed_at = min(now, attempt.deadline_at)
        attempt.score = _grade(attempt, closed_at)
        attempt.closed_at, attempt.closed_by = closed_at, by
        attempt.save(update_fields=["score", "closed_at", "closed_by"])
        AuditEntry.objects.create(
            course_id=attempt.course_id, assessment_id=attempt.assessment_id, attempt=attempt,
            actor=actor or (attempt.student if by == Attempt.ClosedBy.STUDENT else None),
            action="submit" if by == Attempt.ClosedBy.STUDENT else "close",
            detail=f"attempt {attempt.number}, score {attempt.score:.4f}")
        assessment_scores_refresh(assessment=attempt.assessment, course_id=attempt.course_id,
                                  student_ids=[attempt.student_id], now=now)
    return attempt, True


def _grade(attempt: Attempt, closed_at: datetime) -> float:
    """Grade every part of the paper from the saved drafts; the paper's score 0..1."""
    questions = questions_of(attempt.paper)
    saved = {(a.question_id, a.part_key): a for a in Answer.objects.filter(attempt=attempt)}
    earned = total = 0.0
    for entry in attempt.paper:
        question = questions[entry["question"]]
        given = {key: a.raw for (qid, key), a in saved.items() if qid == question.pk}
        results = question_results(question, question_params(question, entry["seed"]), given)
        for spec in question.parts:
            outcome, score, feedback = results[spec["key"]]
            points = float(spec.get("points", 1))
            earned += points * score
            total += points
            answer = saved.get((question.pk, spec["key"]))
            if answer is None:
                answer = Answer(attempt=attempt, question=question, part_key=spec["key"],
                                raw="", saved_at=closed_at, saves=0)
            answer.outcome, answer.score, answer.feedback = outcome, score, feedback
            answer.save()
    return earned / total if total else 0.0


def attempts_expired_close(*, now: datetime | None = None) -> int:
    """Close and grade every open attempt whose deadline has passed (the sweep for attempts
    no browser closes); how many this call closed. Safe to run twice at once: each attempt
    is closed under its row lock, once."""
    now = now or timezone.now()
    closed = 0
    for attempt_id in Attempt.objects.filter(closed_at__isnull=True, deadline_at__lte=now) \
            .values_list("pk", flat=True)[:1000]:
        closed += _close(attempt_id=attempt_id, by=Attempt.ClosedBy.DEADLINE, actor=None,
                         now=now)[1]
    return closed
