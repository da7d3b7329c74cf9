"""The score outbox: record each student's latest exercise score, send it, retry, sweep.

`score_deliveries_record` runs inside the transaction that changed a grade (an outbox
consumer, lti/ags/outbox.py): it locks the student's delivery row, computes the score as
committed now, and stores it with the time it was decided (strictly later than the one
stored, so a newer score always wins). The Celery task `score_delivery_attempt` claims the
row (state "sending", with a lease), posts the score, and records the answer:

- 2xx: "sent" — unless a newer score arrived meanwhile, then "waiting" and queued again;
- 5xx, 429, 401, timeouts: "retrying" with exponential backoff, until LTI_SCORE_MAX_ATTEMPTS;
- other 4xx: "failed" with the platform's message (shown to instructors; "send again").

The sweep re-queues rows whose task was lost and rows left "sending" by a dead worker.
The platform ignores a score older than the one it holds (AGS), and we never send one.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from lti_tool.models import LtiContext, LtiUser

from core.content_cache import content_cached
from core.queueing import task_send, task_send_on_commit
from courses.models import Course, Exercise
from exams.models import Assessment, AssessmentScore
from lti.ags.assessment_scores import assessment_score_fields
from lti.ags.connector import AGS_SCOPES, PlatformClient, PlatformError
from lti.ags.lineitems import line_item_ensure, scores_url
from lti.ags.scores import exercise_score
from lti.scores_models import ScoreDelivery

logger = logging.getLogger(__name__)

DELIVER_TASK = "lti.ags.tasks.score_deliver_task"
SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"
State = ScoreDelivery.State


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def lease() -> timedelta:
    """How long a claimed row stays "sending" before the sweep presumes its worker dead
    (longer than the requests one attempt makes)."""
    return timedelta(seconds=_setting("LTI_SCORE_LEASE_SECONDS", 60.0))


def retry_delay(attempts: int) -> float:
    """Seconds before the next try after `attempts` failures: base * 2^(attempts-1), capped."""
    base = _setting("LTI_SCORE_RETRY_BASE_SECONDS", 5.0)
    cap = _setting("LTI_SCORE_RETRY_MAX_SECONDS", 1800.0)
    return float(min(cap, base * 2 ** max(0, attempts - 1)))


def lms_contexts(course_id: int) -> list[LtiContext]:
    """The LMS contexts linked to the course, each with its deployment: every graded answer
    asks (and the course usually has none or one), so from the content cache, no query once
    cached. The instances are shared: never change them."""
    return content_cached(f"lms-contexts:{course_id}", lambda: list(
        LtiContext.objects.filter(course_link__course_id=course_id)
        .select_related("deployment").order_by("id")))


#: What a delivery scores: an exercise, or an assessment (its released score).
Item = Exercise | Assessment


def score_deliveries_record(*, course_id: int, student_id: int, exercise_id: int | None = None,
                            assessment_id: int | None = None,
                            contexts: list[LtiContext] | None = None) -> list[int]:
    """Store the student's current score on the exercise (or their released score on the
    assessment, `assessment_id` instead) for every LMS context linked to the course
    (`contexts`, looked up when None) where the student has an LMS identity, and queue its
    delivery on commit.

    Must run inside the transaction that changed the grade. Returns the delivery ids
    touched. One query when the course has no LMS context.
    """
    contexts = lms_contexts(course_id) if contexts is None else contexts
    if not contexts:
        return []
    registrations = {c.deployment.registration_id for c in contexts}
    known = set(LtiUser.objects.filter(auth_user_id=student_id, registration_id__in=registrations)
                .values_list("registration_id", flat=True))
    contexts = [c for c in contexts if c.deployment.registration_id in known]
    if not contexts:
        return []
    course = Course.objects.get(pk=course_id)
    item: Item = (Assessment.objects.get(pk=assessment_id) if assessment_id is not None
                  else Exercise.objects.get(pk=exercise_id or 0))
    return [_record_one(context, course, item, student_id) for context in contexts]


def _key(item: Item) -> dict[str, Item]:
    return {"assessment": item} if isinstance(item, Assessment) else {"exercise": item}


def _score_fields(course: Course, item: Item, student_id: int) -> dict[str, Any]:
    if isinstance(item, Assessment):
        return assessment_score_fields(course=course, assessment=item, student_id=student_id)
    score = exercise_score(course=course, student=student_id, exercise=item)
    return {"score_given": score.given, "score_maximum": score.maximum,
            "activity_progress": score.activity_progress,
            "grading_progress": score.grading_progress}


def _record_one(context: LtiContext, course: Course, exercise: Item, student_id: int) -> int:
    delivery = _locked_row(context, course, exercise, student_id)
    if delivery is None:
        created = _create(context, course, exercise, student_id,
                          _score_fields(course, exercise, student_id), timezone.now())
        if created is not None:
            task_send_on_commit(DELIVER_TASK, created.pk)
            return created.pk
        # A concurrent transaction created it: wait for its lock, then score afresh.
        delivery = _locked_row(context, course, exercise, student_id)
        if delivery is None:  # created and deleted meanwhile: nothing sensible to update
            return 0
    # Scored after the lock: a concurrent change to this student's exercise has committed.
    fields = _score_fields(course, exercise, student_id)
    now = timezone.now()
    decided = max(now, delivery.decided_at + timedelta(milliseconds=1))
    update: dict[str, Any] = {**fields, "decided_at": decided, "version": F("version") + 1}
    queue = delivery.state in (State.SENT, State.FAILED)
    if queue:
        update.update(state=State.WAITING, attempts=0, next_attempt_at=now)
    ScoreDelivery.objects.filter(pk=delivery.pk).update(**update)
    if queue:
        task_send_on_commit(DELIVER_TASK, delivery.pk)
    return delivery.pk


def _locked_row(context: LtiContext, course: Course, exercise: Item,
                student_id: int) -> ScoreDelivery | None:
    return (ScoreDelivery.objects.select_for_update()
            .filter(context=context, student_id=student_id, **_key(exercise)).first())


def _create(context: LtiContext, course: Course, exercise: Item, student_id: int,
            fields: dict[str, Any], now: datetime) -> ScoreDelivery | None:
    try:
        with transaction.atomic():
            return ScoreDelivery.objects.create(
                context=context, course=course, student_id=student_id, **_key(exercise),
                decided_at=now, next_attempt_at=now, **fields)
    except IntegrityError:  # created by a concurrent transaction: update that one instead
        return None


@dataclass(frozen=True)
class ScoreAttempt:
    """What one attempt did: "sent", "requeued" (a newer score came meanwhile), "retry"
    (again in `retry_in` s), "failed", or "skipped" (not due, or claimed elsewhere)."""

    outcome: str
    retry_in: float | None = None


def _claim(delivery_id: int, now: datetime) -> bool:
    return bool(ScoreDelivery.objects.filter(
        pk=delivery_id, state__in=(State.WAITING, State.RETRYING), next_attempt_at__lte=now,
    ).update(state=State.SENDING, next_attempt_at=now + lease(), last_attempt_at=now))


def score_delivery_attempt(*, delivery_id: int) -> ScoreAttempt:
    """Send the delivery's latest score now if it is due; safe to call any number of times
    and from several workers (a conditional UPDATE claims the row)."""
    if not _claim(delivery_id, timezone.now()):
        return ScoreAttempt("skipped")
    delivery = (ScoreDelivery.objects.select_related("context__deployment__registration",
                                                     "exercise", "assessment")
                .get(pk=delivery_id))
    try:
        _send(delivery)
    except PlatformError as error:
        return _failed(delivery, error)
    except Exception as exc:  # a bug must not leave the row claimed until the lease ends
        logger.exception("score delivery %s crashed", delivery_id)
        return _failed(delivery, PlatformError(f"internal error: {type(exc).__name__}",
                                               status=None, transient=True))
    done = timezone.now()
    sent = {"attempts": 0, "last_error": "", "last_status_code": 200,
            "sent_score_given": delivery.score_given, "sent_decided_at": delivery.decided_at,
            "sent_at": done}
    if ScoreDelivery.objects.filter(pk=delivery_id, version=delivery.version).update(
            state=State.SENT, **sent):
        return ScoreAttempt("sent")
    ScoreDelivery.objects.filter(pk=delivery_id).update(state=State.WAITING,
                                                        next_attempt_at=done, **sent)
    task_send(DELIVER_TASK, delivery_id)
    return ScoreAttempt("requeued")


def _send(delivery: ScoreDelivery) -> None:
    context = delivery.context
    registration = context.deployment.registration
    sub = (LtiUser.objects.filter(registration=registration, auth_user_id=delivery.student_id)
           .order_by("pk").values_list("sub", flat=True).first())
    if sub is None:
        raise PlatformError("The student has no account on this platform.", status=None,
                            transient=False)
    client = PlatformClient(registration)
    scored = delivery.exercise or delivery.assessment
    if scored is None:  # the check constraint forbids it
        raise PlatformError("The delivery scores nothing.", status=None, transient=False)
    line_item = line_item_ensure(client=client, context=context, exercise=scored,
                                 score_maximum=delivery.score_maximum)
    if delivery.line_item_id != line_item.pk:
        ScoreDelivery.objects.filter(pk=delivery.pk).update(line_item=line_item)
    client.call("POST", scores_url(line_item.url), scopes=AGS_SCOPES, content_type=SCORE_TYPE,
                json_body=score_payload(delivery, user_id=sub))


def score_payload(delivery: ScoreDelivery, *, user_id: str) -> dict[str, Any]:
    """The AGS score for the delivery's latest value."""
    return {
        "userId": user_id,
        "scoreGiven": delivery.score_given,
        "scoreMaximum": delivery.score_maximum,
        "activityProgress": delivery.activity_progress,
        "gradingProgress": delivery.grading_progress,
        "timestamp": delivery.decided_at.isoformat(timespec="microseconds"),
    }


def _failed(delivery: ScoreDelivery, error: PlatformError) -> ScoreAttempt:
    attempts = delivery.attempts + 1
    done = timezone.now()
    common = {"attempts": attempts, "last_status_code": error.status,
              "last_error": error.message[:1000]}
    give_up = not error.transient or attempts >= _setting("LTI_SCORE_MAX_ATTEMPTS", 12)
    if give_up:
        # Failed only if no newer score came meanwhile (checked in the same UPDATE: its
        # recorder saw "sending" and left the queueing to this worker).
        if ScoreDelivery.objects.filter(pk=delivery.pk, version=delivery.version).update(
                state=State.FAILED, **common):
            logger.warning("score delivery %s failed: %s", delivery.pk, error.message)
            return ScoreAttempt("failed")
        ScoreDelivery.objects.filter(pk=delivery.pk).update(
            state=State.WAITING, next_attempt_at=done, **{**common, "attempts": 0})
        task_send(DELIVER_TASK, delivery.pk)
        return ScoreAttempt("requeued")
    delay = max(retry_delay(attempts), error.retry_after or 0.0)
    ScoreDelivery.objects.filter(pk=delivery.pk).update(
        state=State.RETRYING, next_attempt_at=done + timedelta(seconds=delay), **common)
    return ScoreAttempt("retry", retry_in=delay)


def score_delivery_resend(*, course: Course, delivery_id: int) -> ScoreDelivery:
    """Send the delivery's latest score again from now (an instructor's "send again"),
    whatever its state but "sending"; ScoreDelivery.DoesNotExist for another course's row."""
    with transaction.atomic():
        delivery = ScoreDelivery.objects.select_for_update().get(pk=delivery_id, course=course)
        if delivery.state != State.SENDING:
            ScoreDelivery.objects.filter(pk=delivery.pk).update(
                state=State.WAITING, attempts=0, next_attempt_at=timezone.now())
            task_send_on_commit(DELIVER_TASK, delivery.pk)
    delivery.refresh_from_db()
    return delivery


def score_deliveries_sweep(*, grace: timedelta | None = None,
                           enqueue: Callable[[int], object] | None = None) -> list[int]:
    """Queue again the deliveries whose task was lost: due for longer than `grace`, or still
    "sending" after their lease (the worker died). Returns their ids."""
    now = timezone.now()
    grace = grace if grace is not None else timedelta(
        seconds=_setting("LTI_SCORE_SWEEP_GRACE_SECONDS", 30.0))
    abandoned = ScoreDelivery.objects.filter(state=State.SENDING, next_attempt_at__lt=now)
    abandoned.update(state=State.RETRYING, next_attempt_at=now)
    overdue = (ScoreDelivery.objects.filter(
        Q(state__in=(State.WAITING, State.RETRYING)),
        Q(next_attempt_at__lt=now - grace) | Q(next_attempt_at=now))
        .order_by("next_attempt_at").values_list("pk", flat=True)[:1000])
    ids = list(overdue)
    for delivery_id in ids:
        (enqueue or (lambda pk: task_send(DELIVER_TASK, pk)))(delivery_id)
    if ids:
        logger.warning("re-queued %d score deliveries", len(ids))
    return ids


def score_deliveries_queue_for_student(*, course: Course, student: User) -> list[int]:
    """Record every exercise score and released assessment score of the student in the
    course (e.g. once the platform gave them an identity); returns the delivery ids."""
    exercise_ids = set(course.submissions.filter(student=student)
                       .values_list("part__exercise_id", flat=True))
    touched: list[int] = []
    for exercise_id in sorted(exercise_ids):
        with transaction.atomic():
            touched += score_deliveries_record(course_id=course.pk, student_id=student.pk,
                                               exercise_id=exercise_id)
    released = (AssessmentScore.objects.filter(course=course, student=student,
                                               released_score__isnull=False)
                .order_by("assessment_id").values_list("assessment_id", flat=True))
    for assessment_id in list(released):
        with transaction.atomic():
            touched += score_deliveries_record(course_id=course.pk, student_id=student.pk,
                                               assessment_id=assessment_id)
    return touched
