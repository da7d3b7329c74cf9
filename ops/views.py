"""Operations endpoints: liveness, readiness (both open but rate limited) and /metrics.

- GET /health/live/   200 {"status": "ok"} while the process serves requests; touches no
                      dependency (a restart would not fix one).
- GET /health/ready/  200 when every readiness check passes (ops/health.py), otherwise 503;
                      the body names each check: {"status": "ok" | "unavailable",
                      "checks": {"database": "ok", "broker": "Unavailable: ...", ...}}.
- GET /metrics        Prometheus text format, for `Authorization: Bearer <METRICS_TOKEN>`
                      only (ops/metrics_export.py).
Too many health calls from one address: 429 {"status": "throttled"} with Retry-After.
"""

import asyncio
import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views import View
from django.views.decorators.http import require_GET
from health_check.base import HealthCheck, HealthCheckResult
from health_check.views import HealthCheckView
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from ops.health import READINESS_CHECKS
from ops.metrics_export import metrics_enabled, metrics_registry, metrics_request_allowed
from ops.throttling import health_request_allowed


def _throttled(wait: float | None) -> JsonResponse:
    response = JsonResponse({"status": "throttled"}, status=429)
    if wait is not None:
        response["Retry-After"] = str(max(1, math.ceil(wait)))
    return response


@require_GET
def liveness(request: HttpRequest) -> HttpResponse:
    """200 while this process answers (rate limited per address)."""
    allowed, wait = health_request_allowed(request)
    response = JsonResponse({"status": "ok"}) if allowed else _throttled(wait)
    add_never_cache_headers(response)
    return response


def _results(checks: list[HealthCheck]) -> list[HealthCheckResult]:
    """Run `checks` concurrently with django-health-check's own runner (time limit and error
    handling per check) on an event loop of a helper thread, so the view works the same
    under WSGI and whatever loop the calling thread may run. A check still running past its
    time limit is abandoned in its thread, never waited for."""
    executor = ThreadPoolExecutor(max_workers=max(1, len(checks)),
                                  thread_name_prefix="readiness-check")

    async def gather() -> list[HealthCheckResult]:
        return list(await asyncio.gather(*(check.get_result(executor) for check in checks)))

    try:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="readiness") as loop_thread:
            return loop_thread.submit(asyncio.run, gather()).result()
    finally:
        executor.shutdown(wait=False)


class ReadinessView(HealthCheckView):
    """django-health-check's view with our checks, synchronous, always JSON, 503 when one
    fails."""

    checks = tuple(READINESS_CHECKS.values())
    http_method_names = ["get"]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        allowed, wait = health_request_allowed(request)
        # The library's dispatch is async; Django's own runs our synchronous get().
        response = View.dispatch(self, request, *args, **kwargs) if allowed else _throttled(wait)
        add_never_cache_headers(response)
        return response

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        self.results = _results(list(self.get_checks()))
        failed = any(result.error for result in self.results)
        return self.render_to_response_json(503 if failed else 200)

    def render_to_response_json(self, status: int) -> JsonResponse:
        names = {check if isinstance(check, str) else f"{check.__module__}.{check.__name__}": name
                 for name, check in READINESS_CHECKS.items()}
        checks = {}
        for result in self.results:
            kind = type(result.check)
            name = names.get(f"{kind.__module__}.{kind.__name__}", kind.__name__)
            checks[name] = "ok" if result.error is None else str(result.error)
        return JsonResponse({"status": "unavailable" if status != 200 else "ok", "checks": checks},
                            status=status)


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """The Prometheus metrics, for the bearer of METRICS_TOKEN (401 otherwise; 404 without
    a token configured)."""
    if not metrics_enabled():
        raise Http404("metrics are not enabled")
    if not metrics_request_allowed(request):
        response = HttpResponse("A bearer token is required.\n", status=401,
                                content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(generate_latest(metrics_registry()), content_type=CONTENT_TYPE_LATEST)
