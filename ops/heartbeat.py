"""Celery worker heartbeats in the database, and the question "was a worker seen recently?".

Each worker's main process starts a daemon thread when it is ready (ops/celery_setup.py);
the thread writes `WorkerHeartbeat(worker=<node name>, seen_at=now)` every
WORKER_HEARTBEAT_SECONDS, independently of the task queue (a worker busy with long lab runs,
or a long queue, still heartbeats), and the row is deleted on a clean shutdown so readiness
sees a stopped worker at once. A killed worker stops heartbeating and is no longer "seen"
after HEALTH_WORKER_MAX_AGE_SECONDS. Rows a day old are pruned as heartbeats are written.
"""

import logging
import threading
from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from ops.models import WorkerHeartbeat

logger = logging.getLogger(__name__)

PRUNE_AFTER = timedelta(days=1)


def worker_heartbeat_record(*, worker: str) -> None:
    """Record that `worker` is alive now; prune rows of workers gone for a day."""
    now = timezone.now()
    WorkerHeartbeat.objects.update_or_create(worker=worker[:255], defaults={"seen_at": now})
    WorkerHeartbeat.objects.filter(seen_at__lt=now - PRUNE_AFTER).delete()


def worker_heartbeat_forget(*, worker: str) -> None:
    """Forget `worker` (it is shutting down cleanly)."""
    WorkerHeartbeat.objects.filter(worker=worker[:255]).delete()


def max_age() -> timedelta:
    """How recent a heartbeat must be for its worker to count as seen."""
    return timedelta(seconds=float(getattr(settings, "HEALTH_WORKER_MAX_AGE_SECONDS", 60.0)))


def workers_seen() -> int:
    """How many workers heartbeated within `max_age()`."""
    return WorkerHeartbeat.objects.filter(seen_at__gte=timezone.now() - max_age()).count()


class HeartbeatThread(threading.Thread):
    """Calls `worker_heartbeat_record` for `worker` every `interval` seconds until stopped.

    A failed write (database down) is logged and retried at the next beat; the thread's
    database connection is dropped after an error and when past CONN_MAX_AGE.
    """

    def __init__(self, worker: str, interval: float) -> None:
        super().__init__(name="worker-heartbeat", daemon=True)
        self.worker = worker
        self.interval = interval
        self.stopped = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopped.is_set():
                self.beat()
                self.stopped.wait(self.interval)
        finally:
            connection.close()

    def beat(self) -> None:
        close_old_connections()
        try:
            worker_heartbeat_record(worker=self.worker)
        except Exception:  # the database is down: readiness will say so; try again later
            logger.warning("worker heartbeat could not be recorded", exc_info=True)
            connection.close()

    def stop(self) -> None:
        self.stopped.set()


def heartbeat_start(*, worker: str) -> HeartbeatThread:
    """Start heartbeating for `worker` every WORKER_HEARTBEAT_SECONDS; returns the thread."""
    thread = HeartbeatThread(worker, float(getattr(settings, "WORKER_HEARTBEAT_SECONDS", 15.0)))
    thread.start()
    return thread
