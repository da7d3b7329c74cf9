"""Celery tasks for the API: forgetting old Idempotency-Keys (thin)."""

from celery import shared_task

from api.idempotency import idempotency_records_prune


@shared_task(acks_late=True)
def idempotency_records_prune_task() -> int:
    """Forget Idempotency-Keys older than a week."""
    return idempotency_records_prune()
