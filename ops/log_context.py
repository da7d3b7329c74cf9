"""What the request and task log lines carry beyond django-structlog's defaults.

- request lines ("request_finished"): duration_ms, and api_key_id when an API key
  authenticated the request (never the key itself);
- task lines ("task_succeeded", "task_failed", ...): the task's name. The context of the
  request that queued a task (request_id, user_id, course) reaches the task through the
  message headers (django-structlog's before_task_publish receiver), whatever sends it:
  core/queueing.py's task_send, .delay() or a sweep.
"""

import time
from typing import Any

import structlog
from django.http import HttpRequest, HttpResponse
from django_structlog import signals
from django_structlog.celery import signals as celery_signals

_STARTED = "_ops_log_started"


def _request_started(request: HttpRequest, **_: Any) -> None:
    setattr(request, _STARTED, time.perf_counter())


def _request_finished(request: HttpRequest, response: HttpResponse, log_kwargs: dict[str, Any],
                      **_: Any) -> None:
    started = getattr(request, _STARTED, None)
    if started is not None:
        log_kwargs["duration_ms"] = round((time.perf_counter() - started) * 1000, 1)
    auth = getattr(request, "auth", None)
    key_id = getattr(auth, "pk", None)
    if key_id is not None:
        log_kwargs["api_key_id"] = key_id


def _task_started(task: Any, **_: Any) -> None:
    structlog.contextvars.bind_contextvars(task=getattr(task, "name", None))


def request_context_connect() -> None:
    """Connect the receivers above to django-structlog's signals (from OpsConfig.ready)."""
    signals.bind_extra_request_metadata.connect(_request_started, dispatch_uid="ops-started")
    signals.bind_extra_request_finished_metadata.connect(_request_finished,
                                                         dispatch_uid="ops-finished")
    celery_signals.bind_extra_task_metadata.connect(_task_started, dispatch_uid="ops-task")
