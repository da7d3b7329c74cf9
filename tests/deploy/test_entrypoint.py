"""The image's entrypoint (deploy/entrypoint.sh), run for real without a container: each mode
starts the right process against the project (gunicorn and daphne serve /health/live/, a
worker runs a lab, beat sends the schedule, migrate migrates a new database and syncs the
content, backup writes a verified backup folder and prunes old ones)."""

import json
import os
import sqlite3
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from courses.models import Lab
from labs.models import LabRun
from labs.services import lab_run_request
from tests import workers
from tests.deploy.processes import ENTRYPOINT, running
from tests.ops.conftest import free_port
from tests.workers import wait_for


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a container: production settings, a SQLite file and broker folder
    of the test's own (the image's defaults when no DATABASE_URL is given)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.production",
           "SECRET_KEY": "entrypoint-test-key-not-a-secret",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
           "CELERY_BROKER_URL": "filesystem://", "CELERY_BROKER_DIR": str(tmp_path / "broker"),
           "ALLOWED_HOSTS": "grader.example.org", "GRADER_STATE_FILE": str(tmp_path / "process"),
           "LOG_LEVEL": "WARNING"}
    env.pop("CACHE_URL", None)
    return {**env, **extra}


def worker_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a process on this test's database and broker queue."""
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": workers.test_database_url(), "GRADER_STATE_FILE": str(tmp_path / "process"),
            **extra}


def entrypoint(*args: str, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ENTRYPOINT), *args], cwd="/", env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


def command_line(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def health(port: int, host: str = "grader.example.org") -> dict[str, object]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/health/live/", headers={"Host": host})
    with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310 (our server)
        assert response.status == 200
        return dict(json.loads(response.read()))


def serving(port: int, process: subprocess.Popen[bytes], log: Path) -> dict[str, object]:
    def answered() -> dict[str, object]:
        assert process.poll() is None, log.read_text()
        try:
            return health(port)
        except OSError:
            return {}
    return wait_for(answered, timeout=90, interval=0.3)


def test_web_runs_gunicorn_serving_health_under_the_production_settings(tmp_path):
    port = free_port()
    env = production_env(tmp_path, GUNICORN_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1")
    with running("web", env=env, log=tmp_path / "web.log") as process:
        assert serving(port, process, tmp_path / "web.log") == {"status": "ok"}
        assert "gunicorn" in command_line(process.pid)  # exec'd: gunicorn is the process itself
        assert entrypoint("healthcheck", env=env).returncode == 0
    assert entrypoint("healthcheck", env=env).returncode == 1  # the server is gone


def test_asgi_runs_daphne_serving_health(tmp_path):
    port = free_port()
    env = production_env(tmp_path, ASGI_BIND="127.0.0.1", ASGI_PORT=str(port))
    with running("asgi", env=env, log=tmp_path / "asgi.log") as process:
        assert serving(port, process, tmp_path / "asgi.log") == {"status": "ok"}
        assert "daphne" in command_line(process.pid)
        assert entrypoint("healthcheck", env=env).returncode == 0


def test_migrate_migrates_a_new_database_then_backup_writes_a_backup_and_prunes_old_ones(tmp_path):
    env = production_env(tmp_path, BACKUP_DIR=str(tmp_path / "backups"), BACKUP_KEEP_DAYS="30")
    waiting = entrypoint("wait-for-migrations", env={**env, "MIGRATIONS_WAIT_SECONDS": "2"})
    assert waiting.returncode == 1, waiting.stderr  # a new database: migrations are due

    migrated = entrypoint("migrate", env=env)
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM django_migrations WHERE app = 'ops' AND name = "
                          "'0002_beat_lease'").fetchone() == (1,)
        modules = {row[0] for row in db.execute("SELECT slug FROM courses_module")}
    assert "module-05" in modules  # sync_content ran after the migrations
    assert entrypoint("wait-for-migrations", env=env).returncode == 0

    old = tmp_path / "backups" / "2020-01-01T000000Z"
    old.mkdir(parents=True)
    os.utime(old, (time.time() - 40 * 86400,) * 2)
    backup = entrypoint("backup", env=env)
    assert backup.returncode == 0, backup.stdout + backup.stderr
    [folder] = list((tmp_path / "backups").iterdir())
    assert (folder / "manifest.json").is_file() and (folder / "database.sqlite3").is_file()
    assert not old.exists()

    checked = entrypoint("manage", "check", env=env)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.services
def test_worker_runs_a_celery_worker_that_runs_a_lab(transactional_db, broker_url, course, alice,
                                                      tmp_path):
    from config.celery import app

    app.control.purge()
    metrics = tmp_path / "metrics"  # not there yet: the entrypoint makes it, as in a new pod
    env = worker_env(tmp_path, PROMETHEUS_MULTIPROC_DIR=str(metrics))
    args = ("worker", "--concurrency=1", "--queues", settings.CELERY_TASK_DEFAULT_QUEUE,
            "--without-gossip", "--without-mingle", "--hostname=entrypoint-test@%h")
    log = tmp_path / "worker.log"
    with running(*args, env=env, log=log) as process:
        wait_for(lambda: "ready." in log.read_text() or process.poll() is not None, timeout=90)
        assert process.poll() is None, log.read_text()
        assert "celery" in command_line(process.pid) and " worker " in command_line(process.pid)
        run = lab_run_request(lab=Lab.objects.get(slug="vanishing-gradient"), course=course,
                              requester=alice, params={}, seed=3)
        wait_for(lambda: LabRun.objects.get(pk=run.pk).status == LabRun.Status.SUCCEEDED,
                 timeout=60)
    assert list(metrics.glob("counter_*.db")), "the worker wrote no metrics"


@pytest.mark.django_db(transaction=True)
def test_beat_runs_celery_beat_with_the_lease_and_sends_the_schedule(tmp_path):
    from config.celery import app

    env = worker_env(tmp_path, BEAT_LEASE_SECONDS="3", BEAT_SCHEDULE_FILE=str(tmp_path / "schedule"))
    log = tmp_path / "beat.log"
    with running("beat", env=env, log=log) as process:
        wait_for(lambda: "Sending due task" in log.read_text() or process.poll() is not None,
                 timeout=90)
        assert process.poll() is None, log.read_text()
        assert "beat lease taken" in log.read_text()
        assert " beat " in command_line(process.pid)
    app.control.purge()


def test_an_unknown_mode_prints_the_usage_and_exits_2(tmp_path):
    result = entrypoint("serve", env=production_env(tmp_path))
    assert result.returncode == 2
    assert "usage: entrypoint.sh web|asgi|worker|beat|migrate" in result.stderr
