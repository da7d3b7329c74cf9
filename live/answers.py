"""A student's answer in a live session: an ordinary submission (stored first, graded by the
part's checker, counted in the gradebook), recorded for the room's distribution."""

from django.contrib.auth.models import User
from django.db import IntegrityError
from django.db.models import F

from courses.models import Enrollment
from grading.checkers import answer_key
from grading.models import Submission
from grading.services import SubmissionRefused, submission_create
from live.distribution import part_kind
from live.models import LiveAnswer, LiveSession
from live.push import live_changed

#: Outcomes after which the student may answer again (nothing was locked in).
NOT_LOCKED = (Submission.Outcome.INVALID, Submission.Outcome.ERROR)


class LiveAnswerRefused(Exception):
    """The answer was not taken (answering closed, answered already, not a student, ...)."""


def live_answer_submit(*, session: LiveSession, student: User, raw_answer: str) -> Submission:
    """Store and grade `raw_answer` to the session's part through `submission_create`, and
    count it in the room's distribution. A prediction is held (not run, not graded) until
    the instructor runs the lab; an unreadable answer gets the checker's message, uses no
    attempt, and the student may answer again.

    Raises LiveAnswerRefused, storing nothing, when answering is not open, the user is not
    an active student of the course, or has locked in an answer already; and with the
    grading refusals (no attempts left, solved already, deadline passed)."""
    if not session.accepting:
        raise LiveAnswerRefused("Answering is closed for this question.")
    if not Enrollment.objects.filter(user=student, course_id=session.course_id, is_active=True,
                                     role=Enrollment.Role.STUDENT).exists():
        raise LiveAnswerRefused("Only the course's students answer live questions.")
    if LiveAnswer.objects.filter(session=session, student=student, valid=True).exists():
        raise LiveAnswerRefused("Your answer is locked in.")

    def record(submission: Submission) -> None:
        # Read, not locked: locking the session row serialised the whole room's answers
        # (the rush benchmark's web workers all timed out). An answer committing in the
        # instant Run commits is still a held prediction; after the reveal the recovery
        # sweep gives it its own run (labs/recovery.py).
        state = LiveSession.objects.filter(pk=session.pk).values_list("state", flat=True).first()
        if state != LiveSession.State.OPEN:
            raise LiveAnswerRefused("Answering is closed for this question.")
        LiveAnswer.objects.create(session=session, student=student, submission=submission)

    try:
        submission = submission_create(student=student, course=session.course, part=session.part,
                                       raw_answer=raw_answer, on_stored=record)
    except IntegrityError:  # the same student's answer from another tab won the race
        raise LiveAnswerRefused("Your answer is locked in.") from None
    except SubmissionRefused as exc:
        raise LiveAnswerRefused(str(exc)) from exc
    live_answer_count(session=session, submission=submission)
    return submission


def live_answer_count(*, session: LiveSession, submission: Submission) -> None:
    """Record what the projector counts of a graded live answer, and nudge the projector."""
    if submission.outcome in NOT_LOCKED:
        LiveAnswer.objects.filter(submission=submission).update(valid=False)
    else:
        bucket, number = _bucket(session, submission)
        LiveAnswer.objects.filter(submission=submission).update(
            bucket=bucket[:300], number=number, misconception=submission.misconception)
    LiveSession.objects.filter(pk=session.pk).update(version=F("version") + 1)
    version = LiveSession.objects.filter(pk=session.pk).values_list("version", flat=True).first()
    live_changed(session_id=session.pk, version=version or 0, state=session.state, phones=False)


def _bucket(session: LiveSession, submission: Submission) -> tuple[str, float | None]:
    kind = part_kind(session.part)
    if kind == "choice":
        keys = sorted({k.strip().lower() for k in submission.raw_answer.split(",") if k.strip()})
        return ",".join(keys), None
    if kind == "number":
        key = answer_key(submission.raw_answer, session.part.spec) or ""
        try:
            return submission.canonical, float(key.removeprefix("number:"))
        except ValueError:
            return submission.canonical, None
    return submission.canonical, None
