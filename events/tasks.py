"""Celery tasks for events: webhook delivery and its outbox sweeper (thin: ids in, services)."""

from celery import Task, shared_task
from celery.signals import worker_ready
from django.db import DatabaseError

from events.delivery import webhook_delivery_attempt, webhook_outbox_sweep


@shared_task(bind=True, acks_late=True, autoretry_for=(DatabaseError,), retry_backoff=True,
             retry_backoff_max=60, max_retries=8)
def webhook_deliver_task(self: Task, delivery_id: int) -> str:
    """Try outbox row `delivery_id`; on failure schedule the next try (exponential backoff)."""
    attempt = webhook_delivery_attempt(delivery_id=delivery_id)
    if attempt.retry_in is not None:
        webhook_deliver_task.apply_async((delivery_id,), countdown=attempt.retry_in)
    return attempt.outcome


@shared_task(acks_late=True)
def webhook_outbox_sweep_task() -> int:
    """Re-queue deliveries whose task a broker or worker lost."""
    return len(webhook_outbox_sweep())


@worker_ready.connect
def _sweep_outbox_on_worker_start(**_: object) -> None:
    webhook_outbox_sweep_task.delay()
