"""A real `celery worker` process for tests, on the same database and broker as the test."""

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from django.conf import settings
from django.db import connection

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent


def test_database_url() -> str:
    """A DATABASE_URL naming the test database this process is using."""
    params = connection.settings_dict
    if params["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{Path(params['NAME']).resolve()}"
    user = params.get("USER") or ""
    password = f":{params['PASSWORD']}" if params.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    host = params.get("HOST") or "127.0.0.1"
    port = params.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{params['NAME']}"


@dataclass
class WorkerProcess:
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def kill(self) -> None:
        """SIGKILL the whole worker (main process and its pool children), as a crash would."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def start_worker(log_dir: Path, *, concurrency: int = 1, beat: bool = False,
                 broker_url: str | None = None, include: str | None = None) -> WorkerProcess:
    """Start a worker on the test database and this session's queue (on `broker_url` when
    given, e.g. a proxy the test can cut, else the test's broker; with the tasks of the
    module `include` too, e.g. a test's probe); wait until it is ready."""
    name = uuid.uuid4().hex[:8]
    log_path = log_dir / f"worker-{name}.log"
    env = {**os.environ, "DATABASE_URL": test_database_url(),
           "DJANGO_SETTINGS_MODULE": "config.settings.test", "OPENBLAS_NUM_THREADS": "1"}
    if broker_url is not None:
        env["CELERY_BROKER_URL"] = broker_url
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=info",
               f"--concurrency={concurrency}", f"--hostname=test-{name}@%h",
               "--queues", settings.CELERY_TASK_DEFAULT_QUEUE,
               "--without-gossip", "--without-mingle"]
    if include is not None:
        command += ["--include", include]
    if beat:
        command += ["--beat", "--schedule", str(log_dir / f"beat-{name}")]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    worker = WorkerProcess(process=process, log_path=log_path)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if "ready." in worker.log():
            return worker
        if process.poll() is not None:
            raise RuntimeError(f"celery worker exited early:\n{worker.log()}")
        time.sleep(0.2)
    worker.stop()
    raise RuntimeError(f"celery worker did not become ready:\n{worker.log()}")


@contextmanager
def running_worker(log_dir: Path, **options: object) -> Iterator[WorkerProcess]:
    worker = start_worker(log_dir, **options)  # type: ignore[arg-type]
    try:
        yield worker
    finally:
        worker.stop()


def wait_for(predicate: Callable[[], T], *, timeout: float = 60.0, interval: float = 0.1) -> T:
    """Poll `predicate` until it returns a truthy value; AssertionError after `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout} s")
