"""Webhook subscriptions of a course, and the outbox consumer that writes their deliveries.

A subscription names a URL and the events it wants. For each recorded event of its course,
`webhook_deliveries_record` (an outbox consumer) writes one delivery row per subscription
in the event's transaction and queues it after the commit; events/delivery.py sends it.
"""

import logging
import secrets
import uuid
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.content_cache import content_cached
from core.queueing import task_send_on_commit
from courses.models import Course
from events.catalog import event_types
from events.models import WebhookDelivery, WebhookSubscription
from events.outbox import Event
from events.webhook_http import UnsafeAddress, resolve_checked

logger = logging.getLogger(__name__)

DELIVER_TASK = "events.tasks.webhook_deliver_task"


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
    unknown = [e for e in chosen if e not in event_types()]
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


def webhook_deliveries_record(event: Event) -> int:
    """The outbox consumer: one delivery row per active subscription of the event's course
    to its name, queued after the commit; returns how many. One query when nobody listens."""
    return webhook_deliveries_record_many([event])


def _listeners(course_id: int) -> list[tuple[int, list[str]]]:
    """(id, event names) of the course's active subscriptions, oldest first, as every
    graded answer asks (and the course usually has none): from the content cache, no query
    once cached (a subscription's writes bump the content version)."""
    return content_cached(f"webhook-listeners:{course_id}", lambda: list(
        WebhookSubscription.objects.filter(course_id=course_id, is_active=True)
        .order_by("created_at", "id").values_list("id", "events")))


def webhook_deliveries_record_many(events: list[Event]) -> int:
    """`webhook_deliveries_record` for many events of one course: one query when nobody
    listens, two when some subscription takes them, whatever the number of events."""
    if not events:
        return 0
    listeners = _listeners(events[0].course_id)
    now = timezone.now()
    rows: list[WebhookDelivery] = []
    for event in events:
        targets = [pk for pk, names in listeners if event.name in names]
        if not targets:
            continue
        event_id = uuid.uuid4()
        body = {"id": str(event_id), "type": event.name, "created_at": now.isoformat(),
                "data": event.payload}
        rows += [WebhookDelivery(subscription_id=pk, event_id=event_id, event=event.name,
                                 payload=body, next_attempt_at=now) for pk in targets]
    if not rows:
        return 0
    rows = WebhookDelivery.objects.bulk_create(rows)
    for row in rows:
        task_send_on_commit(DELIVER_TASK, row.pk)
    return len(rows)
