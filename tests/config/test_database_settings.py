"""Connection settings come from the environment: persistent connections by default, a
psycopg pool per process with DB_POOL on PostgreSQL (docs/scaling.md)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import environ
import pytest

from config.settings.database import connection_settings
from tests.conftest import require_service

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = {"ENGINE": "django.db.backends.postgresql", "NAME": "grader", "HOST": "db"}
SQLITE = {"ENGINE": "django.db.backends.sqlite3", "NAME": "var/db.sqlite3"}
CONNECTION_ENV = ("DB_POOL", "DB_POOL_MIN_SIZE", "DB_POOL_MAX_SIZE", "DB_POOL_TIMEOUT",
                  "CONN_MAX_AGE", "DB_DISABLE_SERVER_SIDE_CURSORS", "CELERY_WORKER_CONCURRENCY",
                  "CELERY_WORKER_PREFETCH_MULTIPLIER", "DB_SERVER_SIDE_BINDING",
                  "DB_PREPARE_THRESHOLD")


@pytest.fixture(autouse=True)
def _no_connection_settings(monkeypatch):
    for name in CONNECTION_ENV:
        monkeypatch.delenv(name, raising=False)


def test_without_settings_connections_persist_sixty_seconds_and_there_is_no_pool():
    database = connection_settings(POSTGRES, environ.Env())
    assert database["CONN_MAX_AGE"] == 60
    assert "pool" not in database.get("OPTIONS", {})
    assert database["CONN_HEALTH_CHECKS"] is True


def test_conn_max_age_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("CONN_MAX_AGE", "0")
    assert connection_settings(POSTGRES, environ.Env())["CONN_MAX_AGE"] == 0


def test_db_pool_gives_a_sized_pool_and_no_persistent_connection(monkeypatch):
    monkeypatch.setenv("DB_POOL", "on")
    monkeypatch.setenv("DB_POOL_MAX_SIZE", "8")
    monkeypatch.setenv("CONN_MAX_AGE", "60")
    database = connection_settings(POSTGRES, environ.Env())
    assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 8, "timeout": 10.0}
    assert database["CONN_MAX_AGE"] == 0  # Django refuses a pool with persistent connections


def test_behind_pgbouncer_server_side_cursors_can_be_turned_off(monkeypatch):
    assert "DISABLE_SERVER_SIDE_CURSORS" not in connection_settings(POSTGRES, environ.Env())
    monkeypatch.setenv("DB_DISABLE_SERVER_SIDE_CURSORS", "true")
    monkeypatch.setenv("CONN_MAX_AGE", "0")
    database = connection_settings(POSTGRES, environ.Env())
    assert database["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert database["CONN_MAX_AGE"] == 0


def test_postgresql_binds_on_the_server_and_prepares_a_statement_run_five_times():
    options = connection_settings(POSTGRES, environ.Env())["OPTIONS"]
    assert options["server_side_binding"] is True and options["prepare_threshold"] == 5


def test_prepared_statements_and_server_binding_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("DB_PREPARE_THRESHOLD", "off")  # an old PgBouncer in transaction mode
    options = connection_settings(POSTGRES, environ.Env())["OPTIONS"]
    assert options["server_side_binding"] is True and options["prepare_threshold"] is None
    monkeypatch.setenv("DB_SERVER_SIDE_BINDING", "false")
    assert connection_settings(POSTGRES, environ.Env()).get("OPTIONS", {}) == {}
    assert "server_side_binding" not in connection_settings(SQLITE, environ.Env())["OPTIONS"]


@pytest.mark.services
def test_a_statement_run_five_times_is_prepared_on_postgresql(db):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL); CI runs it there")
    connection.ensure_connection()
    with connection.cursor() as cursor:
        for _ in range(6):
            cursor.execute("SELECT count(*) FROM auth_user WHERE id > %s", [0])
        cursor.execute("SELECT count(*) FROM pg_prepared_statements "
                       "WHERE statement LIKE %s", ["%FROM auth_user WHERE id > $1%"])
        assert cursor.fetchone()[0] == 1


def test_db_pool_is_ignored_on_sqlite(monkeypatch):
    monkeypatch.setenv("DB_POOL", "on")
    database = connection_settings(SQLITE, environ.Env())
    assert "pool" not in database["OPTIONS"]
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def _in_a_process(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in CONNECTION_ENV}
    environment.update(env)
    return subprocess.run([sys.executable, "-c", "import django; django.setup(); " + code],
                          cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60,
                          check=False)


def test_production_settings_read_the_pool_and_the_worker_settings_from_the_environment():
    code = ("from django.conf import settings as s; import json; d = s.DATABASES['default']; "
            "print(json.dumps([d.get('OPTIONS', {}).get('pool'), d['CONN_MAX_AGE'], "
            "s.CELERY_WORKER_CONCURRENCY, s.CELERY_WORKER_PREFETCH_MULTIPLIER]))")
    common = {"DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": "x" * 50,
              "DATABASE_URL": "postgres://u@db.example:5432/grader"}
    off = _in_a_process(code, **common)
    on = _in_a_process(code, **common, DB_POOL="true", DB_POOL_MAX_SIZE="3",
                       CELERY_WORKER_CONCURRENCY="6", CELERY_WORKER_PREFETCH_MULTIPLIER="4")
    assert off.returncode == 0, off.stderr
    assert on.returncode == 0, on.stderr
    assert json.loads(off.stdout) == [None, 60, None, 1]
    assert json.loads(on.stdout) == [{"min_size": 1, "max_size": 3, "timeout": 10.0}, 0, 6, 4]


@pytest.mark.services
def test_a_pooled_connection_answers_queries_on_postgresql():
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        pytest.skip("needs PostgreSQL (DATABASE_URL); CI runs it there")
    require_service("PostgreSQL", url)
    code = ("from django.db import connection; "
            "[connection.cursor().execute('SELECT 1') for _ in range(3)]; "
            "print(type(connection.pool).__name__, connection.pool.max_size)")
    server = url.rsplit("/", 1)[0] + "/postgres"  # the test database is pytest's own
    result = _in_a_process(code, DJANGO_SETTINGS_MODULE="config.settings.test", DB_POOL="on",
                           DB_POOL_MAX_SIZE="2", DATABASE_URL=server)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["ConnectionPool", "2"]
