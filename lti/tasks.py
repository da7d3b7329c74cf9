"""Celery tasks of the LTI tool (thin)."""

from celery import shared_task

from lti.services.nonces import used_nonces_prune


@shared_task(acks_late=True)
def used_nonces_prune_task() -> int:
    """Forget launch nonces that expired."""
    return used_nonces_prune()
