"""Celery tasks for grading: the sweep that finishes abandoned submissions (thin)."""

from celery import shared_task
from celery.signals import worker_ready

from grading.recovery import submissions_recover


@shared_task(acks_late=True)
def submissions_recover_task() -> int:
    """Grade, or request the lab run of, submissions a crash left pending; returns how many."""
    return submissions_recover().total


@worker_ready.connect
def _recover_on_worker_start(**_: object) -> None:
    submissions_recover_task.delay()
