"""Celery tasks for labs: thin wrappers that call the services with ids, nothing else."""

from celery import Task, shared_task
from celery.signals import worker_ready
from django.db import DatabaseError

from labs.predictions import lab_run_execute_and_grade
from labs.recovery import predictions_recover
from labs.services import lab_run_sweep


@shared_task(
    bind=True, acks_late=True, reject_on_worker_lost=True, autoretry_for=(DatabaseError,),
    retry_backoff=True, retry_backoff_max=60, max_retries=8,
)
def lab_run_task(self: Task, run_id: int) -> str:
    """Execute lab run `run_id` and grade the prediction waiting for it (idempotent); retry
    later while another worker holds it."""
    outcome = lab_run_execute_and_grade(run_id=run_id)
    if outcome == "busy":
        raise self.retry(countdown=10, max_retries=20)
    return outcome


@shared_task(acks_late=True)
def lab_run_sweep_task() -> int:
    """Re-queue runs that a dead worker or a lost message left behind."""
    return len(lab_run_sweep())


@shared_task(acks_late=True)
def predictions_recover_task() -> int:
    """Request, re-run or grade the lab runs of predictions a crash left half done."""
    return predictions_recover().total


@worker_ready.connect
def _sweep_on_worker_start(**_: object) -> None:
    lab_run_sweep_task.delay()
    predictions_recover_task.delay()
