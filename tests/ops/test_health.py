"""Liveness and readiness: which dependency is down is named in a 503, nothing secret is shown,
the endpoints need no sign-in and are rate limited; real brokers and a real worker."""

import asyncio
import threading
from pathlib import Path

import pytest
from django.db import connection, connections
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client
from django.utils import timezone

from ops import health
from ops.models import WorkerHeartbeat
from tests.ops.conftest import free_port
from tests.workers import wait_for

READY = "/health/ready/"
LIVE = "/health/live/"
CHECKS = {"database", "cache", "broker", "worker", "migrations", "disk"}


@pytest.fixture(autouse=True)
def _fresh_limits(empty_cache, settings):
    settings.HEALTH_THROTTLE_RATE = "1000/min"


@pytest.fixture
def worker_seen(transactional_db) -> WorkerHeartbeat:
    """A worker heartbeat written just now (committed: the checks read it from their thread)."""
    return WorkerHeartbeat.objects.create(worker="celery@test", seen_at=timezone.now())


def _ready(client: Client | None = None) -> tuple[int, dict]:
    response = (client or Client()).get(READY)
    assert response["Content-Type"] == "application/json"
    return response.status_code, response.json()


def _failing(body: dict) -> set[str]:
    return {name for name, state in body["checks"].items() if state != "ok"}


def test_liveness_answers_without_sign_in_and_without_touching_dependencies(client, dead_broker):
    response = client.get(LIVE)
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_readiness_is_ok_when_every_dependency_answers(worker_seen):
    status, body = _ready()
    assert (status, body["status"]) == (200, "ok"), body
    assert set(body["checks"]) == CHECKS
    assert set(body["checks"].values()) == {"ok"}


def test_readiness_answers_from_a_thread_that_runs_an_event_loop(worker_seen):
    statuses: list[int] = []

    async def probe() -> None:
        statuses.append(_ready()[0])  # a synchronous caller inside a running loop (Playwright's)

    thread = threading.Thread(target=asyncio.run, args=(probe(),))
    thread.start()
    thread.join(timeout=60)
    assert statuses == [200]


def test_readiness_is_503_naming_the_broker_when_its_port_is_closed(worker_seen, dead_broker):
    status, body = _ready()
    assert status == 503 and body["status"] == "unavailable"
    assert _failing(body) == {"broker"}
    assert body["checks"]["broker"].startswith("Unavailable: cannot connect to the broker")


def test_readiness_fails_once_a_running_redis_broker_is_stopped(worker_seen, own_redis,
                                                                broker_pointed_at):
    broker_pointed_at(own_redis.url, {"socket_connect_timeout": 1})
    assert _ready()[0] == 200

    own_redis.stop()

    status, body = _ready()
    assert status == 503 and _failing(body) == {"broker"}


def test_readiness_fails_when_the_filesystem_brokers_folder_is_gone(worker_seen, tmp_path,
                                                                     broker_pointed_at, settings):
    from config.settings.base import filesystem_broker_options

    folder = tmp_path / "broker"
    broker_pointed_at("filesystem://", filesystem_broker_options(folder))
    assert _ready()[0] == 200

    (folder / "queue").rmdir()

    status, body = _ready()
    assert status == 503 and _failing(body) == {"broker"}
    assert body["checks"]["broker"] == "Unavailable: the filesystem broker's queue folder is missing"


def test_readiness_names_the_database_when_it_cannot_be_reached(worker_seen, monkeypatch):
    params = connections.settings["default"]
    if connection.vendor == "sqlite":
        monkeypatch.setitem(params, "NAME", "/nonexistent-folder/grader.sqlite3")
    else:
        monkeypatch.setitem(params, "PORT", str(free_port()))
    monkeypatch.setattr(health, "_migrations_applied", False)

    status, body = _ready()

    assert status == 503
    assert {"database", "worker", "migrations"} <= _failing(body)
    assert "nonexistent" not in str(body) and "grader.sqlite3" not in str(body)


def test_readiness_names_the_cache_when_the_redis_cache_is_unreachable(worker_seen, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
                                   "OPTIONS": {"socket_connect_timeout": 1}}}
    status, body = _ready()
    assert status == 503 and _failing(body) == {"cache"}


def test_readiness_names_the_worker_when_none_heartbeated_recently(transactional_db, settings):
    settings.HEALTH_WORKER_MAX_AGE_SECONDS = 60
    WorkerHeartbeat.objects.create(worker="celery@gone",
                                   seen_at=timezone.now() - timezone.timedelta(seconds=61))
    status, body = _ready()
    assert status == 503 and _failing(body) == {"worker"}
    assert body["checks"]["worker"] == "Unavailable: no Celery worker seen in the last 60 s"


def test_readiness_names_migrations_not_applied(worker_seen, monkeypatch):
    monkeypatch.setattr(health, "_migrations_applied", False)
    # The app's latest migration (an earlier one left out under a later applied one is a
    # history no migrate makes).
    recorded = MigrationRecorder.Migration.objects.filter(app="ops").latest("name")
    recorded.delete()
    try:
        status, body = _ready()
    finally:
        MigrationRecorder.Migration.objects.create(app="ops", name=recorded.name)
    assert status == 503 and _failing(body) == {"migrations"}
    assert body["checks"]["migrations"].startswith("Unavailable: 1 migration(s) not applied")


def test_readiness_names_the_disk_when_an_embedded_folder_has_too_little_space(
    worker_seen, settings, monkeypatch, tmp_path
):
    monkeypatch.setattr(health, "embedded_folders", lambda: {"database": tmp_path})
    settings.HEALTH_DISK_MIN_FREE_MB = 10**12  # more than any disk has
    status, body = _ready()
    assert status == 503 and _failing(body) == {"disk"}
    assert body["checks"]["disk"].startswith("Unavailable: less than 1000000000000 MB free for "
                                             "the database")
    assert str(tmp_path) not in str(body)


def test_disk_is_checked_for_the_embedded_defaults_in_use_only(settings):
    folders = health.embedded_folders()
    if connection.vendor == "sqlite":
        assert folders["database"] == Path(connection.settings_dict["NAME"]).resolve().parent
    else:
        assert "database" not in folders
    assert ("broker" in folders) == settings.CELERY_BROKER_URL.startswith("filesystem")


def test_the_503_body_shows_no_url_host_or_password(worker_seen, broker_pointed_at):
    port = free_port()
    broker_pointed_at(f"redis://:s3cret-pass@127.0.0.1:{port}/0", {"socket_connect_timeout": 1})
    response = Client().get(READY)
    text = response.content.decode()
    assert response.status_code == 503
    for secret in ("s3cret-pass", "redis://", "127.0.0.1", str(port)):
        assert secret not in text


def test_readiness_sees_a_real_worker_and_names_it_once_the_worker_stopped(celery_worker):
    status, body = wait_for(lambda: (lambda r: r if r[0] == 200 else None)(_ready()), timeout=30)
    assert body["checks"]["worker"] == "ok"

    celery_worker.stop()

    status, body = _ready()
    assert status == 503 and _failing(body) == {"worker"}


def test_health_endpoints_are_rate_limited_per_address(worker_seen, settings):
    settings.HEALTH_THROTTLE_RATE = "3/min"
    prober = Client(REMOTE_ADDR="10.1.1.1")
    assert [prober.get(path).status_code for path in (LIVE, READY, LIVE)] == [200, 200, 200]

    refused = prober.get(READY)
    assert refused.status_code == 429 and refused.json() == {"status": "throttled"}
    assert int(refused["Retry-After"]) >= 1
    assert prober.get(LIVE).status_code == 429
    assert Client(REMOTE_ADDR="10.1.1.2").get(READY).status_code == 200
