"""Sending outbox rows: signed POSTs, retries with exponential backoff, replays, the sweep.

The delivery row is the source of truth: Celery sends it (events/tasks.py), retrying with
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
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.metrics import observe_webhook_delivery_attempt
from core.queueing import task_send, task_send_on_commit
from events.models import WebhookDelivery
from events.webhook_http import post_to_checked_address
from events.webhooks import DELIVER_TASK

logger = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Grader-Signature"
#: A claimed delivery is not claimed again for this long (longer than the HTTP timeout).
LEASE = timedelta(seconds=60)
HTTP_TIMEOUT = 10.0
#: The sweeper leaves a due row alone this long, so that its scheduled task gets it first.
SWEEP_GRACE = timedelta(seconds=30)


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def _enqueue(delivery_id: int) -> None:
    task_send(DELIVER_TASK, delivery_id)


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


@observe_webhook_delivery_attempt
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
