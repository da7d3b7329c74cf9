"""Celery tasks of exams: the sweep that closes and grades attempts whose deadline passed
while no browser was there to close them."""

from celery import shared_task

from exams.scores import assessment_scores_release_due
from exams.services import attempts_expired_close


@shared_task(acks_late=True)
def expired_attempts_close_task() -> int:
    """Close and grade every expired attempt (run by beat every 30 s), then release the
    scores whose window has closed (exams/scores.py); how many attempts it closed."""
    closed = attempts_expired_close()
    assessment_scores_release_due()
    return closed
