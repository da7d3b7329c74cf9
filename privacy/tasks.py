"""Celery tasks for privacy: applying the retention settings (thin)."""

from celery import shared_task

from privacy.retention import retention_apply


@shared_task(acks_late=True)
def retention_apply_task() -> list[str]:
    """Remove what the retention settings no longer keep; returns the report's lines."""
    return retention_apply().lines()
