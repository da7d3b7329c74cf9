"""A Redis cache that goes away: API requests (whose throttles count in the cache) and the
lab-run page (whose plot is cached) still answer, from a per-process fallback; the outage is
logged once, not per request; readiness still names the cache; and Redis is used again once
it is back."""

import time

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from courses.models import Lab
from labs.services import lab_run_execute, lab_run_request
from tests.tcp_proxy import tcp_proxy

pytestmark = pytest.mark.django_db

REQUESTS = 12


def _redis_cache(location: str) -> dict:
    """CACHES as config/settings/base.py makes them for CACHE_URL=redis://..."""
    return {"default": {"BACKEND": "ops.cache.FallbackRedisCache", "LOCATION": location,
                        "OPTIONS": {"FALLBACK_RETRY_SECONDS": 0.5}}}


def _get_all(course, alice, run) -> list[int]:
    api = APIClient()
    api.force_login(alice)
    page = Client()
    page.force_login(alice)
    codes = []
    for _ in range(REQUESTS // 2):
        codes.append(api.get(f"/api/v1/courses/{course.slug}/exercises/").status_code)
        response = page.get(reverse("lab-run", args=[course.slug, run.uuid]))
        assert b"<svg" in response.content
        codes.append(response.status_code)
    return codes


def test_requests_succeed_while_the_redis_cache_is_cut_and_the_outage_is_logged_once(
        settings, course, alice, own_redis, service_logs) -> None:
    lab = Lab.objects.get(slug="vanishing-gradient")
    run = lab_run_request(lab=lab, course=course, requester=alice, params={}, seed=1)
    lab_run_execute(run_id=run.pk)
    with tcp_proxy("127.0.0.1", own_redis.port) as proxy:
        settings.CACHES = _redis_cache(f"redis://127.0.0.1:{proxy.port}/0")
        assert _get_all(course, alice, run) == [200] * REQUESTS
        from django.core.cache import cache

        assert cache.get(f"throttle_user_{alice.pk}")  # counted in Redis while it is up

        proxy.cut()
        assert _get_all(course, alice, run) == [200] * REQUESTS
        warnings = [line for line in service_logs.lines()
                    if str(line.get("event", "")).startswith("cache unavailable")]
        assert len(warnings) == 1, service_logs.text[-3000:]
        assert "request_failed" not in service_logs.text
        ready = Client().get("/health/ready/")
        assert ready.status_code == 503 and ready.json()["checks"]["cache"] != "ok"

        proxy.restore()


        time.sleep(0.6)  # past FALLBACK_RETRY_SECONDS: the next call tries Redis again
        assert _get_all(course, alice, run) == [200] * REQUESTS
        assert any(str(line.get("event", "")).startswith("cache available again")
                   for line in service_logs.lines())
        assert not cache.degraded  # type: ignore[attr-defined]


def test_requests_succeed_when_the_redis_cache_was_never_reachable(
        settings, course, alice, service_logs) -> None:
    from tests.ops.conftest import free_port

    lab = Lab.objects.get(slug="vanishing-gradient")
    run = lab_run_request(lab=lab, course=course, requester=alice, params={}, seed=2)
    lab_run_execute(run_id=run.pk)
    settings.CACHES = _redis_cache(f"redis://127.0.0.1:{free_port()}/0")
    assert _get_all(course, alice, run) == [200] * REQUESTS
    assert sum(str(line.get("event", "")).startswith("cache unavailable")
               for line in service_logs.lines()) == 1
