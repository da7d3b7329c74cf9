"""Gauges of the service's current state, computed from the database and broker when scraped.

Counting rows at scrape time (every 15-60 s) is cheap (the status columns are indexed) and
right whatever number of processes serve /metrics, which process-local gauges would not be.

- grader_lab_runs{status}                  lab runs queued and running now
- grader_outbox_backlog{channel,status}    outbox rows waiting to be sent (pending) or given up
                                           (failed), per channel; "webhook" is registered here,
                                           another channel registers with
                                           `outbox_backlog_register`
- grader_celery_workers_seen               workers that heartbeated recently (ops/heartbeat.py)
- grader_broker_up                         1 when the broker answered the scrape, else 0
- grader_broker_queue_messages{queue}      messages waiting in the Celery queue
"""

from collections.abc import Callable, Iterator
from typing import Any

from celery import current_app
from django.apps import apps
from django.db.models import Count
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

#: channel -> function returning {status: rows} for that channel's outbox backlog.
_BACKLOG: dict[str, Callable[[], dict[str, int]]] = {}


def outbox_backlog_register(channel: str, count: Callable[[], dict[str, int]]) -> None:
    """Report `count()` ({"pending": n, "failed": m}) as channel `channel`'s outbox backlog."""
    _BACKLOG[channel] = count


def _status_counts(model_label: str, statuses: tuple[str, ...]) -> dict[str, int]:
    """Rows of model `app_label.Model` per status in `statuses` (0 for a status with none)."""
    model = apps.get_model(model_label)
    rows = (model.objects.filter(status__in=statuses)
            .values("status").annotate(n=Count("id")).order_by())
    counts = dict.fromkeys(statuses, 0)
    counts.update({row["status"]: row["n"] for row in rows})
    return counts


def webhook_backlog() -> dict[str, int]:
    """Webhook deliveries waiting (pending) and given up on (failed)."""
    return _status_counts("events.WebhookDelivery", ("pending", "failed"))


outbox_backlog_register("webhook", webhook_backlog)


def lab_runs_active() -> dict[str, int]:
    """Lab runs queued and running now."""
    return _status_counts("labs.LabRun", ("queued", "running"))


def broker_queue_depth(app: Any, queue: str) -> int | None:
    """Messages waiting in `queue` of Celery app `app`; None when the broker does not answer
    (within about 2 s)."""
    from kombu.exceptions import ChannelError

    try:
        with app.connection_for_read() as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=2)
            try:
                return int(connection.default_channel.queue_declare(queue=queue, passive=True)
                           .message_count)
            except ChannelError:  # Redis drops an empty queue's key: nothing waiting
                return 0
    except Exception:
        return None


class ServiceStateCollector(Collector):
    """The gauges listed in the module docstring, computed at each collect()."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from ops.heartbeat import workers_seen

        app = current_app

        runs = GaugeMetricFamily("grader_lab_runs", "Lab runs queued or running now.",
                                 labels=["status"])
        for status, count in lab_runs_active().items():
            runs.add_metric([status], count)
        yield runs

        backlog = GaugeMetricFamily(
            "grader_outbox_backlog",
            "Outbox rows waiting to be sent (pending) or given up (failed), per channel.",
            labels=["channel", "status"])
        for channel, count_backlog in sorted(_BACKLOG.items()):
            for status, count in count_backlog().items():
                backlog.add_metric([channel, status], count)
        yield backlog

        yield GaugeMetricFamily("grader_celery_workers_seen",
                                "Celery workers whose heartbeat is recent "
                                "(HEALTH_WORKER_MAX_AGE_SECONDS).", value=workers_seen())

        queue = str(app.conf.task_default_queue)
        depth = broker_queue_depth(app, queue)
        yield GaugeMetricFamily("grader_broker_up", "1 when the Celery broker answered.",
                                value=0 if depth is None else 1)
        if depth is not None:
            messages = GaugeMetricFamily("grader_broker_queue_messages",
                                         "Messages waiting in the Celery queue.", labels=["queue"])
            messages.add_metric([queue], depth)
            yield messages
