"""Sending Celery tasks once a transaction commits, without letting a broker outage fail
the request that stored the work.

The database row a task processes (a lab run, an outbox delivery, a submission) is the
source of truth; the broker message only says "look at it now". So a message that cannot be
sent is logged and dropped: the sweeps (labs.tasks, events.tasks, grading.tasks) find the
row and queue it again once the broker is back.
"""

import logging
from functools import partial
from typing import Any

from celery import current_app
from django.db import transaction

logger = logging.getLogger(__name__)


def task_send(task_name: str, *args: Any, countdown: float | None = None) -> bool:
    """Send task `task_name` with `args` now; False (logged) if the broker cannot be reached.

    Tasks are named ("labs.tasks.lab_run_task") so that services need not import the task
    modules that import them.
    """
    try:
        current_app.send_task(task_name, args=args, countdown=countdown)
    except Exception:  # any broker failure: the sweep re-sends from the database
        logger.warning("could not queue %s%r (broker unreachable?); a sweep will queue it later",
                       task_name, args, exc_info=True)
        return False
    return True


def task_send_on_commit(task_name: str, *args: Any, countdown: float | None = None) -> None:
    """Send the task once the current transaction commits (at once outside a transaction);
    never raises for the broker, so the commit's caller always gets its answer."""
    transaction.on_commit(partial(task_send, task_name, *args, countdown=countdown))
