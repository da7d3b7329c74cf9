"""A real Celery worker through Redis outages: its broker is a TCP proxy in front of Redis that
the test cuts (connections reset, new ones refused) and freezes (connections open, nothing
answered: a partition) several times while lab runs are queued and running. The worker must stay alive
(no "Unrecoverable error"), reconnect by itself, and every queued run must finish once the
broker is back."""

import time
from urllib.parse import urlparse

import pytest

from courses.models import Lab
from labs.models import LabRun
from labs.services import lab_run_request
from tests.tcp_proxy import tcp_proxy
from tests.workers import running_worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

RUNS = 24
# (kind, seconds the broker is away, seconds it is back before the next outage)
OUTAGES = [("cut", 2.0, 3.0), ("cut", 6.0, 2.0), ("freeze", 12.0, 3.0), ("cut", 1.0, 1.0),
           ("cut", 12.0, 4.0)]


def _diagnostic_lab(module_05) -> Lab:
    section = module_05.sections.get(number="5.4")
    return Lab.objects.create(module=module_05, section=section, slug="diagnostic",
                              title="Diagnostic workload", simulation="diagnostic")


def _unfinished() -> int:
    return LabRun.objects.exclude(status=LabRun.Status.SUCCEEDED).count()


@pytest.fixture
def redis_broker(broker_url: str) -> str:
    if not broker_url.startswith("redis"):
        pytest.skip("the worker's broker outages need Redis (CELERY_BROKER_URL=redis://...)")
    return broker_url


def test_worker_survives_repeated_broker_outages_and_finishes_every_queued_run(
        redis_broker, module_05, course, alice, irene, tmp_path) -> None:
    from config.celery import app

    app.control.purge()
    target = urlparse(redis_broker)
    lab = _diagnostic_lab(module_05)
    with tcp_proxy(target.hostname or "127.0.0.1", target.port or 6379) as proxy:
        proxied = f"redis://127.0.0.1:{proxy.port}{target.path or '/0'}"
        with running_worker(tmp_path, concurrency=2, beat=True, broker_url=proxied) as worker:
            for seed in range(RUNS):
                lab_run_request(lab=lab, course=course, requester=irene,
                                params={"seconds": 0.4}, seed=seed)
            # Some runs are taken (and held unacknowledged) before the first cut.
            wait_for(lambda: LabRun.objects.exclude(status=LabRun.Status.QUEUED).exists(),
                     timeout=60, interval=0.05)
            for kind, down, up in OUTAGES:
                proxy.cut() if kind == "cut" else proxy.freeze()
                time.sleep(down)
                assert worker.process.poll() is None, worker.log()[-4000:]
                proxy.restore()
                time.sleep(up)
            wait_for(lambda: _unfinished() == 0, timeout=180, interval=0.5)
            assert worker.process.poll() is None, worker.log()[-4000:]
            log = worker.log()
            assert "Unrecoverable error" not in log, log[-4000:]
            assert "Connection to broker lost" in log  # the cuts did reach the worker
            assert proxy.connections_made > len(OUTAGES)  # it reconnected after each one
    runs = LabRun.objects.all()
    assert runs.count() == RUNS
    assert all((run.result or {}).get("seconds") == 0.4 for run in runs)
