"""Prometheus metrics of the service's own work, and the one-line hooks the services wear.

Counters and histograms live in the process that does the work (a web process grades, a
Celery worker runs labs and sends webhooks). With PROMETHEUS_MULTIPROC_DIR set (production:
gunicorn with several workers, Celery's prefork pool), prometheus_client writes each
process's values to files there and /metrics sums them (ops/metrics_export.py); without it
(development, tests) they stay in the process. Gauges of current state (lab runs queued or
running, deliveries waiting, workers seen, broker queue depth) are not kept here: they are
computed from the database and the broker when scraped (ops/metrics_state.py), so every
process reports the same truth.

Services are instrumented with one decorator line each:

    @observe_submission_grade          grading/services.py  submission_grade
    @observe_lab_run_execute           labs/services.py     lab_run_execute
    @observe_lab_run_sweep             labs/services.py     lab_run_sweep
    @observe_webhook_delivery_attempt  events/delivery.py   webhook_delivery_attempt

Another delivery channel of the outbox (the LTI grade passback) counts its attempts with
`outbox_delivery_observe(channel="lti", outcome=...)` and registers its backlog with
`ops.metrics_state.outbox_backlog_register`.
"""

import functools
import re
import time
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from prometheus_client import Counter, Histogram

P = ParamSpec("P")
R = TypeVar("R")

SUBMISSIONS_GRADED = Counter(
    "grader_submissions_graded_total",
    "Stored answers graded, by outcome (correct, partial, incorrect, invalid, review, "
    "pending, error) and answer type (numeric, symbolic, ...).",
    ["outcome", "answer_type"],
)
GRADING_SECONDS = Histogram(
    "grader_grading_seconds",
    "Time to grade one stored answer (read, check, store the verdict), by answer type.",
    ["answer_type"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
LAB_RUN_EXECUTIONS = Counter(
    "grader_lab_run_executions_total",
    "Lab run executions on workers, by what happened: succeeded, failed, finished-already "
    "(a redelivered task), busy (another worker holds it), superseded, missing, error "
    "(raised, the task retries).",
    ["outcome"],
)
LAB_RUN_SECONDS = Histogram(
    "grader_lab_run_seconds",
    "Wall time of one lab run execution on a worker (claim, simulation, store), by outcome.",
    ["outcome"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 90.0),
)
LAB_RUNS_REQUEUED = Counter(
    "grader_lab_runs_requeued_total",
    "Lab runs re-queued by the sweeper (queued too long, or their worker stopped heartbeating).",
)
OUTBOX_DELIVERIES = Counter(
    "grader_outbox_deliveries_total",
    "Delivery attempts of outbox rows, by channel (webhook, ...) and outcome: sent, retrying "
    "(failed, tried again later), failed (gave up), skipped (not due or taken by another "
    "worker).",
    ["channel", "outcome"],
)

_LABEL = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
_WEBHOOK_OUTCOMES = {"delivered": "sent", "retry": "retrying", "failed": "failed",
                     "skipped": "skipped"}


def _label(value: object) -> str:
    """A label value from data, kept to a small vocabulary ("other" for anything unexpected)."""
    return value if isinstance(value, str) and _LABEL.match(value) else "other"


def submission_graded_observe(*, outcome: object, answer_type: object, seconds: float) -> None:
    """Count one graded answer and its grading time."""
    kind = _label(answer_type)
    SUBMISSIONS_GRADED.labels(outcome=_label(outcome), answer_type=kind).inc()
    GRADING_SECONDS.labels(answer_type=kind).observe(seconds)


def lab_run_executed_observe(*, outcome: object, seconds: float) -> None:
    """Count one lab run execution and its time."""
    LAB_RUN_EXECUTIONS.labels(outcome=_label(outcome)).inc()
    LAB_RUN_SECONDS.labels(outcome=_label(outcome)).observe(seconds)


def lab_runs_requeued_observe(*, count: int) -> None:
    """Count lab runs the sweeper re-queued."""
    if count:
        LAB_RUNS_REQUEUED.inc(count)


def outbox_delivery_observe(*, channel: str, outcome: str) -> None:
    """Count one delivery attempt of `channel` ("webhook", "lti", ...) that ended in `outcome`
    ("sent", "retrying", "failed" or "skipped")."""
    OUTBOX_DELIVERIES.labels(channel=_label(channel), outcome=_label(outcome)).inc()


def _answer_type(submission: Any) -> object:
    try:
        return submission.part.spec.get("type")
    except Exception:
        return None


def observe_submission_grade(function: Callable[P, R]) -> Callable[P, R]:
    """Decorator for `submission_grade(*, submission)`: counts the stored outcome by answer
    type and observes the grading time (an exception counts as outcome "error")."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        started = time.perf_counter()
        outcome: object = "error"
        try:
            result = function(*args, **kwargs)
            outcome = getattr(result, "outcome", "error")
            return result
        finally:
            submission = kwargs.get("submission", args[0] if args else None)
            submission_graded_observe(outcome=outcome, answer_type=_answer_type(submission),
                                      seconds=time.perf_counter() - started)

    return wrapper


def observe_lab_run_execute(function: Callable[P, R]) -> Callable[P, R]:
    """Decorator for `lab_run_execute(*, run_id) -> outcome`: counts the outcome and times it
    (an exception, which makes the task retry, counts as "error")."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        started = time.perf_counter()
        outcome: object = "error"
        try:
            result = function(*args, **kwargs)
            outcome = result
            return result
        finally:
            lab_run_executed_observe(outcome=outcome, seconds=time.perf_counter() - started)

    return wrapper


def observe_lab_run_sweep(function: Callable[P, R]) -> Callable[P, R]:
    """Decorator for `lab_run_sweep(...) -> list of re-queued ids`: counts them."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        result = function(*args, **kwargs)
        lab_runs_requeued_observe(count=len(result) if isinstance(result, list) else 0)
        return result

    return wrapper


def observe_webhook_delivery_attempt(function: Callable[P, R]) -> Callable[P, R]:
    """Decorator for `webhook_delivery_attempt(*, delivery_id) -> DeliveryAttempt`: counts the
    attempt on channel "webhook" as sent, retrying, failed or skipped."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        result = function(*args, **kwargs)
        outcome = _WEBHOOK_OUTCOMES.get(str(getattr(result, "outcome", "")), "other")
        outbox_delivery_observe(channel="webhook", outcome=outcome)
        return result

    return wrapper
