"""Structured logs: one format for the service's structlog events and every library's records.

`logging_config(fmt=..., level=...)` is the LOGGING setting: one handler on standard error
whose formatter renders each record as one JSON object a line ("json", production) or as a
readable line ("console", development), after merging the request's or task's context
(request_id, user_id, course, task_id, ...) and redacting secrets (ops/redaction.py).
`structlog_configure()` routes structlog's loggers (django-structlog's request and task
lines, and ours) into that same handler. No import of Django here: settings import it.
"""

import logging
from typing import Any

import structlog

from ops.redaction import redact_event

#: Run on records of the standard library (Django, Celery, our modules' logging.getLogger).
_PRE_CHAIN: list[Any] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_logger_name,
    structlog.stdlib.add_log_level,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]


class DropRequestDuplicates(logging.Filter):
    """Drop django.request's records ("Not Found: /x", "Service Unavailable: /x", "Internal
    Server Error: /x" with its traceback): django-structlog's request line already says each
    ("request_finished" with the status code, or "request_failed" with the traceback), so
    every request is logged once."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.name != "django.request"


def _renderer(fmt: str) -> Any:
    if fmt == "console":
        return structlog.dev.ConsoleRenderer(colors=False, exception_formatter=structlog.dev.plain_traceback)
    if fmt == "json":
        return structlog.processors.JSONRenderer(sort_keys=False)
    raise ValueError(f"LOG_FORMAT must be 'json' or 'console', not {fmt!r}")


def formatter(fmt: str) -> structlog.stdlib.ProcessorFormatter:
    """The formatter of the service's handler for format `fmt` ("json" or "console"):
    context merged, exceptions rendered to text, everything redacted, then rendered."""
    return structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=_PRE_CHAIN,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            redact_event,
            _renderer(fmt),
        ],
    )


def logging_config(*, fmt: str, level: str) -> dict[str, Any]:
    """The LOGGING dict: everything at `level` and above to standard error in format `fmt`.

    Quietened: Celery's own per-task lines ("received", "succeeded in") since
    django-structlog logs one line per task, and django-axes's chatter below WARNING
    (failures and lockouts are kept).
    """
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"structured": {"()": formatter, "fmt": fmt}},
        "filters": {"requests_once": {"()": DropRequestDuplicates}},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "structured",
                "filters": ["requests_once"],
            },
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "celery.app.trace": {"level": "CRITICAL"},
            "celery.worker.strategy": {"level": "WARNING"},
            "axes": {"level": "WARNING"},
        },
    }


def structlog_configure() -> None:
    """Route structlog's loggers through the standard library's handlers (the one above)."""
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.stdlib.filter_by_level,
            structlog.stdlib.add_logger_name,
            structlog.stdlib.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.stdlib.PositionalArgumentsFormatter(),
            structlog.processors.StackInfoRenderer(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
