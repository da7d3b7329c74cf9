"""Rows the operations code keeps: when each Celery worker was last seen; which beat sends the
schedule."""

from django.db import models


class WorkerHeartbeat(models.Model):
    """One row per Celery worker (its node name), updated by the worker's main process every
    WORKER_HEARTBEAT_SECONDS (ops/heartbeat.py) and deleted when it shuts down cleanly."""

    worker = models.CharField(max_length=255, unique=True)
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.worker} seen {self.seen_at:%Y-%m-%d %H:%M:%S}"


class BeatLease(models.Model):
    """The lease that lets one Celery beat send the schedule (ops/beat_lock.py): the holder
    renews it while it runs; another beat takes it only once it has expired."""

    name = models.CharField(max_length=100, unique=True)
    holder = models.CharField(max_length=255)
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} held by {self.holder} until {self.expires_at:%Y-%m-%d %H:%M:%S}"
