"""Celery tasks of grade passback (thin: ids in, services); imported by lti's hooks."""

from celery import Task, shared_task
from celery.signals import worker_ready
from django.db import DatabaseError

from lti.ags.deliveries import score_deliveries_sweep, score_delivery_attempt


@shared_task(bind=True, name="lti.ags.tasks.score_deliver_task", acks_late=True,
             autoretry_for=(DatabaseError,), retry_backoff=True, retry_backoff_max=60,
             max_retries=8)
def score_deliver_task(self: Task, delivery_id: int) -> str:
    """Try to send delivery `delivery_id`; on a transient failure schedule the next try."""
    attempt = score_delivery_attempt(delivery_id=delivery_id)
    if attempt.retry_in is not None:
        score_deliver_task.apply_async((delivery_id,), countdown=attempt.retry_in)
    return attempt.outcome


@shared_task(name="lti.ags.tasks.score_deliveries_sweep_task", acks_late=True)
def score_deliveries_sweep_task() -> int:
    """Re-queue deliveries whose task was lost or whose worker died while sending."""
    return len(score_deliveries_sweep())


@worker_ready.connect
def _sweep_on_worker_start(**_: object) -> None:
    score_deliveries_sweep_task.delay()
