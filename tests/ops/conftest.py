"""Fixtures for the operations tests: a Celery app pointed at another broker, a Redis server
of our own that a test may stop, and the service's log lines captured as JSON."""

import io
import json
import logging
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache

from ops.logs import DropRequestDuplicates, formatter


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def broker_pointed_at(monkeypatch) -> Iterator[Callable[[str, dict[str, Any]], None]]:
    """Point the Celery app at another broker URL (and transport options) for the test
    (Celery reads CELERY_BROKER_URL from the environment first, so it is set too)."""
    from config.celery import app

    def reset_pools() -> None:
        app._pool = None  # type: ignore[attr-defined]
        app.amqp._producer_pool = None  # type: ignore[attr-defined]

    saved = {"broker_url": app.conf.broker_url,
             "broker_transport_options": app.conf.broker_transport_options}

    def point(url: str, options: dict[str, Any]) -> None:
        monkeypatch.setenv("CELERY_BROKER_URL", url)
        app.conf.update(broker_url=url, broker_transport_options=options)
        reset_pools()

    yield point
    app.conf.update(saved)
    reset_pools()


class RedisServer:
    """A redis-server process of this test, on a free port, that the test may stop."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [str(shutil.which("redis-server")), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.2):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not start")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    """A Redis server only this test uses (fails in CI, skips locally, without redis-server)."""
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is needed (CI must provide it)")
        pytest.skip("redis-server is not installed")
    server = RedisServer()
    yield server
    server.stop()


@pytest.fixture
def empty_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


class LogCapture:
    """The lines the service's log handler writes (its formatter and filter), as text."""

    def __init__(self) -> None:
        self.stream = io.StringIO()
        self.handler = logging.StreamHandler(self.stream)
        self.handler.setFormatter(formatter("json"))
        self.handler.addFilter(DropRequestDuplicates())

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.text.splitlines() if line.strip()]

    def events(self, name: str) -> list[dict[str, Any]]:
        return [line for line in self.lines() if line.get("event") == name]


@pytest.fixture
def service_logs() -> Iterator[LogCapture]:
    """Capture what the service logs, rendered as in production (JSON lines)."""
    capture = LogCapture()
    root = logging.getLogger()
    root.addHandler(capture.handler)
    yield capture
    root.removeHandler(capture.handler)


def worker_log_lines(log_path: Path) -> list[dict[str, Any]]:
    """The JSON lines of a worker's log (the banner and other plain lines skipped)."""
    lines = []
    for line in log_path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("{"):
            try:
                lines.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return lines
