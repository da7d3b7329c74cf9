"""Celery tasks for live sessions: thin wrappers that call the services with ids."""

from celery import Task, shared_task
from django.db import DatabaseError

from live.reveal import RevealBusy, live_reveal


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(DatabaseError,), retry_backoff=True, retry_backoff_max=10, max_retries=8,
             soft_time_limit=300, time_limit=330)
def live_reveal_task(self: Task, session_id: int) -> int:
    """Run the session's lab and grade the room's predictions (idempotent)."""
    try:
        return live_reveal(session_id=session_id)
    except RevealBusy:
        raise self.retry(countdown=0.5, max_retries=60) from None
