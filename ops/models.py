"""Rows the operations code keeps: when each Celery worker was last seen."""

from django.db import models


class WorkerHeartbeat(models.Model):
    """One row per Celery worker (its node name), updated by the worker's main process every
    WORKER_HEARTBEAT_SECONDS (ops/heartbeat.py) and deleted when it shuts down cleanly."""

    worker = models.CharField(max_length=255, unique=True)
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.worker} seen {self.seen_at:%Y-%m-%d %H:%M:%S}"
