"""Metrics under gunicorn with several worker processes: /metrics, whichever worker serves
it, reports the sum of every worker's counts (prometheus_client's multiprocess mode)."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector

from tests import workers
from tests.ops.conftest import free_port

pytestmark = pytest.mark.services
TOKEN = "gunicorn-metrics-token"
LIVE_COUNT = "django_http_responses_total_by_status_view_method_total"


@pytest.fixture
def gunicorn(transactional_db, tmp_path) -> Iterator[tuple[str, Path]]:
    """gunicorn with two workers on the test database; yields its URL and metrics folder."""
    folder = tmp_path / "prometheus"
    folder.mkdir()
    port = free_port()
    env = {**os.environ, "DATABASE_URL": workers.test_database_url(),
           "DJANGO_SETTINGS_MODULE": "config.settings.test", "PROMETHEUS_MULTIPROC_DIR": str(folder),
           "METRICS_TOKEN": TOKEN, "GUNICORN_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "2",
           "HEALTH_THROTTLE_RATE": "10000/min"}
    log = (tmp_path / "gunicorn.log").open("wb")
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py",
                                "config.wsgi"], cwd=workers.ROOT, env=env, stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), 0.2):
                    break
            except OSError:
                assert process.poll() is None, (tmp_path / "gunicorn.log").read_text()
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", folder
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        log.close()


def _get(url: str, token: str | None = None) -> str:
    request = urllib.request.Request(url)  # noqa: S310 (http:// to our own server)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 (our server)
        return str(response.read().decode())


def _live_count(registry: CollectorRegistry) -> float:
    return registry.get_sample_value(LIVE_COUNT, {"status": "200", "view": "health-live",
                                                  "method": "GET"}) or 0.0


def _per_process(folder: Path, scratch: Path) -> list[float]:
    """The health-live count of each process that wrote a counter file."""
    counts = []
    for path in folder.glob("counter_*.db"):
        alone = scratch / path.stem
        alone.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, alone / path.name)
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(alone))
        counts.append(_live_count(registry))
    return counts


def test_metrics_sum_the_requests_served_by_every_gunicorn_worker(gunicorn, tmp_path):
    url, folder = gunicorn
    sent = 0
    with ThreadPoolExecutor(max_workers=6) as pool:
        for _ in range(10):  # bounded: rounds of parallel requests until both workers served
            list(pool.map(lambda _: _get(f"{url}/health/live/"), range(12)))
            sent += 12
            if sum(1 for count in _per_process(folder, tmp_path / f"s{sent}") if count) >= 2:
                break
    assert sum(1 for count in _per_process(folder, tmp_path / "final") if count) >= 2

    text = _get(f"{url}/metrics", TOKEN)

    line = next(line for line in text.splitlines()
                if line.startswith(LIVE_COUNT) and 'view="health-live"' in line
                and 'status="200"' in line)
    assert float(line.rsplit(" ", 1)[1]) == sent
    assert "grader_lab_runs" in text and "grader_broker_up" in text
