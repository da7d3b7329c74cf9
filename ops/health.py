"""Readiness checks on django-health-check's HealthCheck API (4.x: dataclasses whose `run()`
raises ServiceUnavailable with a message fit for the public).

Beside the library's Database check, readiness runs:

- Cache: writes and reads a value; for the Redis cache that falls back to memory
  (ops/cache.py), in Redis itself, so an outage the requests survive is still reported.

- Broker: really connects to the Celery broker (Redis: a connection and a PING), or, for the
  embedded filesystem broker, finds its folders and writes and removes a file in the queue
  folder (a name the transport never reads).
- CeleryWorker: a worker heartbeated within HEALTH_WORKER_MAX_AGE_SECONDS (ops/heartbeat.py).
- Migrations: no migration of the code is left unapplied (once none is, this process stops
  asking: its code cannot gain migrations without a restart).
- DiskSpace: the folders of the embedded defaults (the SQLite database's, the filesystem
  broker's) have HEALTH_DISK_MIN_FREE_MB free; nothing to check on PostgreSQL and Redis.

Messages name the dependency and the kind of failure, never a URL, host name, path or
password. Checks that use the database close their connection: they run in the view's
executor threads.
"""

import dataclasses
import shutil
import tempfile
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from health_check.base import HealthCheck
from health_check.exceptions import ServiceUnavailable


def _celery_app() -> Any:
    """The project's Celery app (config/celery.py made it current; ops sits below config)."""
    return current_app


def _filesystem_folders(app: Any) -> dict[str, Path]:
    options = app.conf.broker_transport_options or {}
    names = {"queue": "data_folder_in", "outgoing": "data_folder_out",
             "processed": "processed_folder", "control": "control_folder"}
    return {label: Path(options[key]) for label, key in names.items() if options.get(key)}


def _is_filesystem(app: Any) -> bool:
    return str(app.conf.broker_url or "").startswith("filesystem")


@dataclasses.dataclass
class Broker(HealthCheck):
    """The Celery broker accepts a connection (see the module)."""

    timeout = timedelta(seconds=3)

    def run(self) -> None:
        app = _celery_app()
        if _is_filesystem(app):
            self._check_folders(app)
            return
        try:
            with app.connection_for_write() as connection:
                connection.ensure_connection(max_retries=1, interval_start=0,
                                             timeout=self.timeout.total_seconds())
        except Exception as exc:
            raise ServiceUnavailable(
                f"cannot connect to the broker ({type(exc).__name__})") from exc

    @staticmethod
    def _check_folders(app: Any) -> None:
        folders = _filesystem_folders(app)
        for label, folder in folders.items():
            if not folder.is_dir():
                raise ServiceUnavailable(f"the filesystem broker's {label} folder is missing")
        queue = folders.get("queue")
        if queue is None:
            raise ServiceUnavailable("the filesystem broker has no queue folder configured")
        try:
            with tempfile.NamedTemporaryFile(dir=queue, prefix=".health-", suffix=".probe"):
                pass
        except OSError as exc:
            raise ServiceUnavailable(
                "the filesystem broker's queue folder is not writable") from exc


@dataclasses.dataclass
class Cache(HealthCheck):
    """The default cache stores and returns a value (see the module)."""

    def run(self) -> None:
        from django.core.cache import caches

        cache = caches["default"]
        try:
            primary_check = getattr(cache, "primary_check", None)
            if primary_check is not None:
                primary_check()
                return
            key = f"health-probe:{uuid.uuid4().hex}"
            cache.set(key, "ok", 5)
            if cache.get(key) != "ok":
                raise ServiceUnavailable("the cache did not return the value written")
        except ServiceUnavailable:
            raise
        except Exception as exc:
            raise ServiceUnavailable(f"cannot reach the cache ({type(exc).__name__})") from exc


@dataclasses.dataclass
class CeleryWorker(HealthCheck):
    """At least one Celery worker heartbeated recently."""

    def run(self) -> None:
        from ops.heartbeat import max_age, workers_seen

        try:
            seen = workers_seen()
        finally:
            connections[DEFAULT_DB_ALIAS].close()
        if not seen:
            raise ServiceUnavailable(
                f"no Celery worker seen in the last {max_age().total_seconds():g} s")


_migrations_applied = False


@dataclasses.dataclass
class Migrations(HealthCheck):
    """Every migration of the running code is applied to the database."""

    def run(self) -> None:
        global _migrations_applied
        if _migrations_applied:
            return
        connection = connections[DEFAULT_DB_ALIAS]
        try:
            executor = MigrationExecutor(connection)
            plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        finally:
            connection.close()
        if plan:
            raise ServiceUnavailable(f"{len(plan)} migration(s) not applied: run manage.py migrate")
        _migrations_applied = True


def embedded_folders() -> dict[str, Path]:
    """The folders the embedded defaults write to: {"database": ..., "broker": ...}, each
    present only when that default is in use."""
    folders: dict[str, Path] = {}
    database = connections[DEFAULT_DB_ALIAS].settings_dict
    if database["ENGINE"].endswith("sqlite3") and str(database["NAME"]) not in ("", ":memory:"):
        folders["database"] = Path(database["NAME"]).resolve().parent
    app = _celery_app()
    if _is_filesystem(app):
        queue = _filesystem_folders(app).get("queue")
        if queue is not None:
            folders["broker"] = queue
    return folders


@dataclasses.dataclass
class DiskSpace(HealthCheck):
    """Each folder of `embedded_folders()` has HEALTH_DISK_MIN_FREE_MB free."""

    def run(self) -> None:
        minimum = int(getattr(settings, "HEALTH_DISK_MIN_FREE_MB", 200)) * 1024 * 1024
        for label, folder in embedded_folders().items():
            if not folder.is_dir():
                continue  # a missing folder is the broker's or the database's check to report
            try:
                free = shutil.disk_usage(folder).free
            except OSError as exc:
                raise ServiceUnavailable(f"the {label} folder cannot be read") from exc
            if free < minimum:
                raise ServiceUnavailable(
                    f"less than {minimum // (1024 * 1024)} MB free for the {label} "
                    f"({free // (1024 * 1024)} MB)")


#: The readiness checks and the names they have in the JSON body.
READINESS_CHECKS: dict[str, str | type[HealthCheck]] = {
    "database": "health_check.checks.Database",
    "cache": Cache,
    "broker": Broker,
    "worker": CeleryWorker,
    "migrations": Migrations,
    "disk": DiskSpace,
}
