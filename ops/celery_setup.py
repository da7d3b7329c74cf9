"""What the Celery app needs from operations: logs, task context, worker heartbeats, metrics.

`celery_configure(app)` (called by config/celery.py) makes every worker:
- log through Django's LOGGING (ops/logs.py) instead of Celery's own handlers;
- log one line per task through django-structlog, in the context of the request that queued
  it (request_id, user_id, course travel in the message headers; see ops/log_context.py);
- heartbeat into the database from its main process (ops/heartbeat.py) while it runs;
- let prometheus_client know when a pool process ends (multiprocess mode);
- survive a Redis broker that drops its connections (ops/kombu_redis_restore.py);
- use the embedded filesystem broker without its write/read race (ops/filesystem_broker.py).
"""

import contextlib
import os
from typing import Any

from celery import Celery
from celery.signals import setup_logging, worker_process_shutdown, worker_ready, worker_shutdown

_heartbeats: dict[str, Any] = {}


def _logging_from_django(**_: Any) -> None:
    """Celery's setup_logging: apply Django's LOGGING (Celery then leaves logging alone)."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)


def _heartbeat_start(sender: Any = None, **_: Any) -> None:
    from ops.heartbeat import heartbeat_start

    worker = str(getattr(sender, "hostname", "") or "worker")
    if worker not in _heartbeats:
        _heartbeats[worker] = heartbeat_start(worker=worker)


def _heartbeat_stop(sender: Any = None, **_: Any) -> None:
    from ops.heartbeat import worker_heartbeat_forget

    worker = str(getattr(sender, "hostname", "") or "worker")
    thread = _heartbeats.pop(worker, None)
    if thread is None:
        return
    thread.stop()
    # A beat in flight would write the row again after it is forgotten: let it finish first.
    thread.join(timeout=5)
    with contextlib.suppress(Exception):  # the database is gone too: the row ages out
        worker_heartbeat_forget(worker=worker)


def _metrics_process_dead(**_: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid())


def celery_configure(app: Celery) -> None:
    """Connect the operations hooks to `app` and to Celery's worker signals (idempotent)."""
    from django_structlog.celery.steps import DjangoStructLogInitStep

    from ops.filesystem_broker import filesystem_broker_install
    from ops.kombu_redis_restore import kombu_redis_restore_guard

    kombu_redis_restore_guard()
    filesystem_broker_install()
    app.steps["worker"].add(DjangoStructLogInitStep)
    setup_logging.connect(_logging_from_django, weak=False, dispatch_uid="ops-logging")
    worker_ready.connect(_heartbeat_start, weak=False, dispatch_uid="ops-heartbeat-start")
    worker_shutdown.connect(_heartbeat_stop, weak=False, dispatch_uid="ops-heartbeat-stop")
    worker_process_shutdown.connect(_metrics_process_dead, weak=False,
                                    dispatch_uid="ops-metrics-process-dead")
