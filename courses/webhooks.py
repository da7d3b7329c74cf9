"""Webhooks: an outbox written with each event, signed deliveries with retries, replays.

`outbox_record` is called inside the transaction that stores the event (a graded
submission, a finished lab run), so an event is recorded if and only if it happened. The
outbox row is the source of truth: Celery delivers it (courses/tasks.py), retrying with
exponential backoff; a sweeper re-queues rows whose task was lost; after
WEBHOOK_MAX_ATTEMPTS failures a row is "failed", listed for the instructor and replayable.

Each request carries `X-Grader-Signature: t=<unix time>,v1=<hex>` where hex is
HMAC-SHA256(secret, f"{t}.{body}"), plus `X-Grader-Event` and `X-Grader-Event-Id` (the
same for every retry: receivers deduplicate on it).
"""

import hashlib
import hmac
import json
import logging
import secrets
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.queueing import task_send, task_send_on_commit
from courses.models import Course, Enrollment, WebhookDelivery, WebhookSubscription
from courses.webhook_http import UnsafeAddress, post_to_checked_address, resolve_checked

logger = logging.getLogger(__name__)

EVENTS = tuple(WebhookSubscription.Event.values)
DELIVER_TASK = "courses.tasks.webhook_deliver_task"
SIGNATURE_HEADER = "X-Grader-Signature"
#: A claimed delivery is not claimed again for this long (longer than the HTTP timeout).
LEASE = timedelta(seconds=60)
HTTP_TIMEOUT = 10.0
#: The sweeper leaves a due row alone this long, so that its scheduled task gets it first.
SWEEP_GRACE = timedelta(seconds=30)


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


class WebhookUrlInvalid(ValueError):
    """The URL cannot receive webhooks (scheme, or a private address where those are refused)."""


def webhook_url_problem(url: str) -> str | None:
    """Why `url` may not receive webhooks, or None. Private and loopback addresses are refused
    unless WEBHOOK_ALLOW_PRIVATE_HOSTS is on (development and tests)."""
    try:
        resolve_checked(url, allow_private=bool(_setting("WEBHOOK_ALLOW_PRIVATE_HOSTS", False)))
    except UnsafeAddress as exc:
        return str(exc)
    return None


def webhook_subscribe(*, course: Course, url: str, events: Iterable[str]) -> WebhookSubscription:
    """Subscribe `url` to `events` of the course with a new random secret.

    Raises WebhookUrlInvalid for a URL that may not receive webhooks and ValueError for an
    unknown event name.
    """
    chosen = sorted(set(events))
    unknown = [e for e in chosen if e not in EVENTS]
    if unknown or not chosen:
        raise ValueError(f"unknown or no events: {unknown}")
    problem = webhook_url_problem(url)
    if problem:
        raise WebhookUrlInvalid(problem)
    with transaction.atomic(durable=True):
        return WebhookSubscription.objects.create(
            course=course, url=url, events=chosen, secret="whsec_" + secrets.token_urlsafe(32)
        )


def webhook_unsubscribe(*, subscription: WebhookSubscription) -> None:
    """Stop sending to the subscription; its pending deliveries give up, history is kept."""
    with transaction.atomic():  # the admin's actions call this inside their own transaction
        WebhookSubscription.objects.filter(pk=subscription.pk).update(is_active=False)
        subscription.deliveries.filter(status=WebhookDelivery.Status.PENDING).update(
            status=WebhookDelivery.Status.FAILED, last_error="The subscription was removed."
        )


def webhook_list(*, course: Course) -> QuerySet[WebhookSubscription]:
    """The course's active subscriptions."""
    return WebhookSubscription.objects.filter(course=course, is_active=True).order_by("id")


def webhook_delivery_list(*, course: Course, status: str | None = None) -> QuerySet[WebhookDelivery]:
    """Deliveries of the course's webhooks, newest first, optionally of one status."""
    rows = WebhookDelivery.objects.filter(subscription__course=course).select_related("subscription")
    if status:
        rows = rows.filter(status=status)
    return rows.order_by("-created_at", "-id")


# --- the outbox -------------------------------------------------------------------------


def _submission_payload(submission_id: int) -> tuple[int, dict[str, Any]]:
    from grading.models import Submission

    s = Submission.objects.select_related("course", "part__exercise", "student").get(pk=submission_id)
    external_id = (
        Enrollment.objects.filter(user_id=s.student_id, course_id=s.course_id)
        .values_list("external_id", flat=True).first() or ""
    )
    return s.course_id, {
        "course": s.course.slug,
        "submission_id": s.pk,
        "student_id": s.student_id,
        "student_username": s.student.username,
        "student_external_id": external_id,
        "exercise": s.part.exercise.slug,
        "part": s.part.key,
        "part_id": s.part_id,
        "points": s.part.points,
        "outcome": s.outcome,
        "score": s.score,
        "counts_as_attempt": s.counts_as_attempt,
        "created_at": s.created_at.isoformat(),
        "graded_at": s.graded_at.isoformat() if s.graded_at else None,
    }


def _lab_run_payload(run_id: int) -> tuple[int, dict[str, Any]]:
    from labs.models import LabRun

    run = LabRun.objects.select_related("course", "lab", "requester").get(pk=run_id)
    return run.course_id, {
        "course": run.course.slug,
        "run_id": str(run.uuid),
        "lab": run.lab.slug,
        "status": run.status,
        "requester_id": run.requester_id,
        "requester_username": run.requester.username,
        "submission_id": run.submission_id,
        "error": run.error,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "url": f"/api/v1/courses/{run.course.slug}/lab-runs/{run.uuid}/",
    }


PAYLOADS: dict[str, Callable[[int], tuple[int, dict[str, Any]]]] = {
    WebhookSubscription.Event.SUBMISSION_GRADED: _submission_payload,
    WebhookSubscription.Event.LAB_RUN_FINISHED: _lab_run_payload,
}


def outbox_record(*, event: str, subject_id: int, course_id: int | None = None) -> int:
    """Write one outbox row per subscription of the course to `event`; returns how many.

    Must be called inside the transaction that stores the event, so that the rows commit
    (and are queued for delivery) exactly when the event does. `subject_id` is the
    submission's id (submission.graded) or the run's (lab_run.finished); `course_id` saves a
    query when known. Costs one query when nobody subscribes.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("outbox_record must run inside the event's transaction")
    subscriptions = WebhookSubscription.objects.filter(is_active=True)
    if course_id is not None:
        subscriptions = subscriptions.filter(course_id=course_id)
    else:
        model = {"submission.graded": "submissions", "lab_run.finished": "lab_runs"}[event]
        subscriptions = subscriptions.filter(**{f"course__{model}__pk": subject_id})
    targets = [pk for pk, events in subscriptions.values_list("pk", "events") if event in events]
    if not targets:
        return 0
    _, data = PAYLOADS[event](subject_id)
    event_id = uuid.uuid4()
    now = timezone.now()
    payload = {"id": str(event_id), "type": event, "created_at": now.isoformat(), "data": data}
    rows = WebhookDelivery.objects.bulk_create([
        WebhookDelivery(subscription_id=pk, event_id=event_id, event=event, payload=payload,
                        next_attempt_at=now)
        for pk in targets
    ])
    ids = [row.pk for row in rows]
    for delivery_id in ids:
        task_send_on_commit(DELIVER_TASK, delivery_id)
    return len(ids)


def _enqueue(delivery_id: int) -> None:
    task_send(DELIVER_TASK, delivery_id)


# --- signing and delivery ---------------------------------------------------------------


def webhook_signature(*, secret: str, timestamp: int, body: bytes) -> str:
    """The signature header value: `t=<timestamp>,v1=<HMAC-SHA256(secret, "<t>.<body>")>`."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def webhook_signature_valid(*, secret: str, header: str, body: bytes, tolerance: int = 300,
                            now: float | None = None) -> bool:
    """Whether `header` signs `body` with `secret` and is at most `tolerance` seconds old
    (what a receiver checks; used by our tests)."""
    parts = dict(item.split("=", 1) for item in header.split(",") if "=" in item)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs((now or time.time()) - timestamp) > tolerance:
        return False
    expected = webhook_signature(secret=secret, timestamp=timestamp, body=body).split(",v1=")[1]
    return hmac.compare_digest(expected, parts.get("v1", ""))


def retry_delay(attempts: int) -> float:
    """Seconds before the next try after `attempts` failures: base * 2^(attempts-1), capped."""
    base = float(_setting("WEBHOOK_RETRY_BASE_SECONDS", 10.0))
    cap = float(_setting("WEBHOOK_RETRY_MAX_SECONDS", 3600.0))
    return float(min(cap, base * 2 ** max(0, attempts - 1)))


@dataclass(frozen=True)
class DeliveryAttempt:
    """What one attempt did: "delivered", "retry" (again in `retry_in` s), "failed" (gave up)
    or "skipped" (not due, claimed by another worker, or finished already)."""

    outcome: str
    retry_in: float | None = None


def webhook_delivery_attempt(*, delivery_id: int) -> DeliveryAttempt:
    """Try to deliver one outbox row now, if it is due; safe to call any number of times.

    The row is claimed by a conditional UPDATE that moves `next_attempt_at` a lease ahead,
    so concurrent or duplicate tasks do not post it twice at once. A 2xx answer delivers it;
    anything else schedules a retry with exponential backoff, until WEBHOOK_MAX_ATTEMPTS.
    """
    now = timezone.now()
    claimed = WebhookDelivery.objects.filter(
        pk=delivery_id, status=WebhookDelivery.Status.PENDING, next_attempt_at__lte=now
    ).update(next_attempt_at=now + LEASE, last_attempt_at=now)
    if not claimed:
        return DeliveryAttempt("skipped")
    delivery = WebhookDelivery.objects.select_related("subscription").get(pk=delivery_id)
    subscription = delivery.subscription
    body = json.dumps(delivery.payload, separators=(",", ":"), sort_keys=True).encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "grader-webhooks/1",
        SIGNATURE_HEADER: webhook_signature(secret=subscription.secret,
                                            timestamp=int(time.time()), body=body),
        "X-Grader-Event": delivery.event,
        "X-Grader-Event-Id": str(delivery.event_id),
        "X-Grader-Delivery": str(delivery.pk),
    }
    if subscription.is_active:
        status_code, error = post_to_checked_address(
            subscription.url, body, headers, timeout=HTTP_TIMEOUT,
            allow_private=bool(_setting("WEBHOOK_ALLOW_PRIVATE_HOSTS", False)),
        )
    else:
        status_code, error = None, "The subscription was removed."
    attempts = delivery.attempts + 1
    done = timezone.now()
    if status_code is not None and 200 <= status_code < 300:
        WebhookDelivery.objects.filter(pk=delivery_id).update(
            status=WebhookDelivery.Status.DELIVERED, attempts=attempts, delivered_at=done,
            last_status_code=status_code, last_error="",
        )
        return DeliveryAttempt("delivered")
    max_attempts = int(_setting("WEBHOOK_MAX_ATTEMPTS", 10))
    if attempts >= max_attempts or not subscription.is_active:
        WebhookDelivery.objects.filter(pk=delivery_id).update(
            status=WebhookDelivery.Status.FAILED, attempts=attempts,
            last_status_code=status_code, last_error=error,
        )
        logger.warning("webhook delivery %s failed for good: %s", delivery_id, error)
        return DeliveryAttempt("failed")
    delay = retry_delay(attempts)
    WebhookDelivery.objects.filter(pk=delivery_id).update(
        attempts=attempts, last_status_code=status_code, last_error=error,
        next_attempt_at=done + timedelta(seconds=delay),
    )
    return DeliveryAttempt("retry", retry_in=delay)


def webhook_delivery_replay(*, delivery: WebhookDelivery) -> WebhookDelivery:
    """Send a delivery again from now (a failed one, or a delivered one on request).

    The attempt count restarts; the event id stays, so receivers can deduplicate.
    """
    with transaction.atomic():  # the admin's actions call this inside their own transaction
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=WebhookDelivery.Status.PENDING, attempts=0, next_attempt_at=timezone.now(),
            delivered_at=None,
        )
        task_send_on_commit(DELIVER_TASK, delivery.pk)
    delivery.refresh_from_db()
    return delivery


def webhook_outbox_sweep(*, grace: timedelta = SWEEP_GRACE,
                         enqueue: Callable[[int], None] | None = None) -> list[int]:
    """Re-queue pending deliveries that are overdue (their task was lost); returns their ids."""
    overdue = WebhookDelivery.objects.filter(
        status=WebhookDelivery.Status.PENDING, next_attempt_at__lt=timezone.now() - grace
    ).order_by("next_attempt_at").values_list("pk", flat=True)[:1000]
    ids = list(overdue)
    for delivery_id in ids:
        (enqueue or _enqueue)(delivery_id)
    if ids:
        logger.warning("re-queued %d overdue webhook deliveries", len(ids))
    return ids
