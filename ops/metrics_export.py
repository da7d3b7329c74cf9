"""The /metrics page: who may read it, and the registry it renders.

Access: only a request with `Authorization: Bearer <METRICS_TOKEN>` (compared in constant
time); without METRICS_TOKEN the page does not exist (404), so a forgotten setting never
publishes metrics. Content: with PROMETHEUS_MULTIPROC_DIR set, the sum over every process
that wrote there (prometheus_client's multiprocess mode: all gunicorn workers, and Celery
workers on the same host sharing the folder); without it, this process's own metrics. Plus,
in both cases, the gauges computed from the database and broker at scrape time
(ops/metrics_state.py).
"""

import hmac
import os
from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest
from prometheus_client import REGISTRY, CollectorRegistry, multiprocess
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

from ops.metrics_state import ServiceStateCollector


class _ProcessMetrics(Collector):
    """This process's default registry, as one collector of another registry."""

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def metrics_enabled() -> bool:
    """Whether /metrics is served at all (METRICS_TOKEN is set)."""
    return bool(getattr(settings, "METRICS_TOKEN", ""))


def metrics_request_allowed(request: HttpRequest) -> bool:
    """Whether `request` carries the bearer token (False when metrics are off)."""
    token = str(getattr(settings, "METRICS_TOKEN", ""))
    if not token:
        return False
    sent = request.headers.get("Authorization", "")
    return hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())


def metrics_registry() -> CollectorRegistry:
    """A registry holding what /metrics shows (see the module)."""
    registry = CollectorRegistry(auto_describe=False)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ProcessMetrics())
    registry.register(ServiceStateCollector())
    return registry
