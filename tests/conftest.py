"""Shared fixtures: the synced Module 5, named users and their enrolments, service checks."""

import copy
import os
import socket
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlparse

import pytest
from django.conf import settings

from core.content_cache import content_cache_reset
from core.message_catalogs import catalogs_compile
from courses.models import Course, Enrollment, Exercise, Figure, Lab, Module, Part, Section
from courses.services import content_sync
from tests import flush
from tests.factories import CourseFactory, EnrollmentFactory, UserFactory

CONTENT_ROOT = Path(settings.CONTENT_ROOT)

# Benchmarks run on demand only: RUN_BENCHMARKS=1 pytest tests/benchmarks -s
collect_ignore = [] if os.environ.get("RUN_BENCHMARKS") else ["benchmarks"]

flush.install()
# The translations as bin/_env.sh compiles them, for a pytest started without bin/test.
catalogs_compile(Path(settings.BASE_DIR))


def service_available(url: str) -> bool:
    """Whether a TCP service named by `url` answers on its port."""
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 0), 1):
            return True
    except OSError:
        return False


def require_service(name: str, url: str) -> None:
    """Skip when a service is missing locally; fail in CI, where a skip would hide a gap."""
    if service_available(url):
        return
    message = f"{name} is not reachable at {url}"
    if os.environ.get("CI"):
        pytest.fail(f"{message} (CI must provide it)")
    pytest.skip(message)


@pytest.fixture(autouse=True)
def _content_cache_fresh() -> None:
    """Each test reads its own content: nothing cached by an earlier test (whose rows, keys
    included, were rolled back) is read again."""
    content_cache_reset()


_CONTENT_MODELS = (Module, Section, Figure, Lab, Exercise, Part)
_synced: list[tuple[type[Any], list[Any]]] = []


@pytest.fixture
def module_05(db) -> Module:
    """Module 5 (and the other modules of the repository) synced from the content files by the
    real sync. The first test of the session syncs; later ones, on an empty database, restore
    the rows that sync produced (the same rows, keys included; one INSERT a model) instead of
    validating every spec again, which took ~0.3 s a test (and saving them row by row, two
    statements a row, ~0.1 s). A test that finds content rows already there (made by an
    earlier fixture) syncs over them, as before."""
    fresh = not Module.objects.exists()
    if not (_synced and fresh):
        content_sync(root=CONTENT_ROOT)
        if fresh:  # the rows of the sync alone: kept for the later tests
            _synced[:] = [(model, list(model.objects.all())) for model in _CONTENT_MODELS]
    else:
        for model, rows in _synced:
            model.objects.bulk_create([copy.copy(row) for row in rows])
    return Module.objects.get(slug="module-05")


@pytest.fixture
def carried_chain(module_05: Module) -> tuple[Part, Part]:
    """Module 5's Apply 2 with its second part turned into "twice your step count" (carried
    credit 0.5) and no penalty: (the earlier part, the later part marked against it)."""
    first = Part.objects.select_related("exercise").get(
        exercise__slug="apply-2-sequential-steps", key="rnn_steps")
    later = Part.objects.select_related("exercise").get(
        exercise__slug="apply-2-sequential-steps", key="attention_steps")
    later.spec = {"type": "integer", "reference": '2*answer("rnn_steps")',
                  "carried_credit": 0.5}
    later.save(update_fields=["spec"])
    first.exercise.penalty = 0.0
    first.exercise.save(update_fields=["penalty"])
    return first, later


@pytest.fixture
def course(module_05: Module) -> Course:
    return cast(Course, CourseFactory(module=module_05, slug="rnn-autumn", title="RNNs, autumn"))


@pytest.fixture
def other_course(module_05: Module) -> Course:
    return cast(Course, CourseFactory(module=module_05, slug="rnn-spring", title="RNNs, spring"))


@pytest.fixture
def alice(course: Course):
    """A student of `course`."""
    user = UserFactory(username="alice")
    EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
    return user


@pytest.fixture
def bob(course: Course):
    """Another student of `course`."""
    user = UserFactory(username="bob")
    EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
    return user


@pytest.fixture
def irene(course: Course):
    """The instructor of `course`."""
    user = UserFactory(username="irene")
    EnrollmentFactory(user=user, course=course, role=Enrollment.Role.INSTRUCTOR)
    return user


@pytest.fixture
def tara(course):
    """A TA of `course`."""
    user = UserFactory(username="tara")
    EnrollmentFactory(user=user, course=course, role=Enrollment.Role.TA)
    return user


@pytest.fixture
def oscar(other_course):
    """The instructor of `other_course` (not of `course`)."""
    user = UserFactory(username="oscar")
    EnrollmentFactory(user=user, course=other_course, role=Enrollment.Role.INSTRUCTOR)
    return user


@pytest.fixture
def proxied_database(monkeypatch):
    """The database connections (this thread's and any opened later, in other threads or the
    live server) go through a TCP proxy that the test can cut and restore
    (tests/tcp_proxy.py), kept open between requests as CONN_MAX_AGE does in production.
    PostgreSQL only: SQLite is a file, it has no connection to cut (skipped there)."""
    from django.db import connection

    from tests.tcp_proxy import tcp_proxy

    if connection.vendor != "postgresql":
        pytest.skip("a database connection to cut needs PostgreSQL (DATABASE_URL=postgres://...)")
    params = connection.settings_dict
    with tcp_proxy(params.get("HOST") or "127.0.0.1", int(params.get("PORT") or 5432)) as proxy:
        connection.close()
        monkeypatch.setitem(params, "HOST", "127.0.0.1")
        monkeypatch.setitem(params, "PORT", str(proxy.port))
        monkeypatch.setitem(params, "CONN_MAX_AGE", 600)
        yield proxy
        proxy.restore()
        connection.close()
    connection.close()


@pytest.fixture
def broker_url() -> str:
    """The Celery broker of this run; Redis must answer when it is the broker."""
    url = settings.CELERY_BROKER_URL
    if url.startswith("redis"):
        require_service("Redis", url)
    return url


@pytest.fixture
def celery_worker(transactional_db, broker_url, tmp_path):
    """A real `celery worker` process on the test database and this session's queue, emptied
    first of messages earlier tests left (for runs and rows that no longer exist)."""
    from config.celery import app
    from tests.workers import running_worker

    app.control.purge()

    with running_worker(tmp_path, beat=True) as worker:
        yield worker


@pytest.fixture
def dead_broker(monkeypatch):
    """The Celery app pointed at a Redis port where nothing listens (as if the broker died),
    for the length of the test; the real broker comes back afterwards. (Celery reads the
    CELERY_BROKER_URL environment variable before its configuration, so both change.)"""
    from config.celery import app

    def reset_pools() -> None:
        app._pool = None  # type: ignore[attr-defined]  # Celery rebuilds them from the conf
        app.amqp._producer_pool = None  # type: ignore[attr-defined]

    saved = (app.conf.broker_url, app.conf.broker_transport_options)
    with socket.socket() as probe:  # a port that was free a moment ago: connection refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"redis://127.0.0.1:{port}/0"
    monkeypatch.setenv("CELERY_BROKER_URL", url)
    app.conf.broker_url = url
    app.conf.broker_transport_options = {"socket_connect_timeout": 1}
    reset_pools()
    try:
        yield app.conf.broker_url
    finally:
        app.conf.broker_url, app.conf.broker_transport_options = saved
        reset_pools()
