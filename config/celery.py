"""The Celery application; tasks are discovered in each app's tasks.py."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init

from config.process_start import process_prepare
from ops.celery_setup import celery_configure

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("gradeservice")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
celery_configure(app)  # logs, request ids into tasks, worker heartbeats, metrics (ops/)
# The worker loads pint's registry before forking its pool: every pool process has it.
worker_init.connect(process_prepare, weak=False, dispatch_uid="process-prepare")


@task_prerun.connect
@task_postrun.connect
def close_old_database_connections(**_: Any) -> None:
    """Treat each task as Django treats a request: before and after it, drop connections that
    are past CONN_MAX_AGE, broken by an error or left mid-transaction; keep the others.

    Celery's own Django fixup would close every connection around every task (settings set
    CELERY_DB_REUSE_MAX so it does not), and a new PostgreSQL connection cost more here than
    a whole lab simulation.
    """
    from django.db import close_old_connections

    close_old_connections()
