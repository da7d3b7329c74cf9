"""Celery tasks keep their database connection the way Django requests do."""

import pytest
from django.db import connection

from config.celery import close_old_database_connections
from courses.models import Lab
from labs.models import LabRun
from labs.services import lab_run_request
from tests.workers import running_worker, wait_for

pytestmark = pytest.mark.services


def _run_and_wait(course, user, seed: int) -> None:
    lab = Lab.objects.get(slug="vanishing-gradient")
    run = lab_run_request(lab=lab, course=course, requester=user, params={}, seed=seed)
    wait_for(lambda: LabRun.objects.filter(pk=run.pk, status="succeeded").exists(), timeout=60,
             interval=0.02)


def _worker_connections_opened() -> list:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT backend_start FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )
        return [row[0] for row in cursor.fetchall()]


def test_worker_reuses_its_database_connection_across_tasks(
    transactional_db, broker_url, course, alice, tmp_path, monkeypatch
):
    if connection.vendor != "postgresql":
        pytest.skip("counts PostgreSQL backends (CI runs it there)")
    monkeypatch.setenv("CONN_MAX_AGE", "60")
    with running_worker(tmp_path, concurrency=1):
        _run_and_wait(course, alice, seed=1)
        with connection.cursor() as cursor:
            cursor.execute("SELECT now()")
            (before_the_batch,) = cursor.fetchone()
        for seed in range(2, 7):
            _run_and_wait(course, alice, seed=seed)
        opened = _worker_connections_opened()
    assert opened, "the worker closed its connection after its tasks"
    assert all(started < before_the_batch for started in opened), opened


def test_task_boundary_keeps_a_healthy_connection_within_conn_max_age(transactional_db,
                                                                       monkeypatch):
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    connection.close()
    connection.ensure_connection()
    live = connection.connection

    close_old_database_connections()

    assert connection.connection is live


def test_task_boundary_drops_a_connection_past_conn_max_age(transactional_db, monkeypatch):
    connection.ensure_connection()
    monkeypatch.setattr(connection, "close_at", 0.0)

    close_old_database_connections()

    assert connection.connection is None
