"""Every web and worker process builds pint's unit registry when it starts (issue 38 item 7),
so no student's first units answer pays for it (1.8-2.8 s on a loaded host); a management
command or a bare `django.setup()` does not.

Each process is started the way production starts it and its state is read before any
answer: the web imports the WSGI or ASGI application as gunicorn and daphne do, the worker
is a real `celery worker` that runs a probe task (which grades nothing) in its pool process.
"""

import subprocess
import sys

import pytest
from django.conf import settings

from tests.workers import ROOT, running_worker, wait_for

_LOADED = "from grading.checkers.units import registry; print(registry.cache_info().currsize)"


def _fresh_process(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={"DJANGO_SETTINGS_MODULE": "config.settings.test",
                              "PATH": "/usr/bin:/bin"}, timeout=120, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("application", ["config.wsgi", "config.asgi"])
def test_a_web_process_has_the_unit_registry_before_its_first_request(application) -> None:
    assert _fresh_process(f"import {application}; {_LOADED}") == "1"


def test_django_setup_alone_does_not_build_the_unit_registry() -> None:
    assert _fresh_process(f"import django; django.setup(); {_LOADED}") == "0"


@pytest.mark.django_db(transaction=True)
def test_a_worker_pool_process_has_the_unit_registry_before_its_first_task(broker_url,
                                                                          tmp_path) -> None:
    from config.celery import app

    answer = tmp_path / "loaded"
    with running_worker(tmp_path, concurrency=1, include="tests.config.unit_registry_probe"):
        app.send_task("tests.config.unit_registry_probe", args=[str(answer)],
                      queue=settings.CELERY_TASK_DEFAULT_QUEUE)
        wait_for(answer.exists, timeout=60)
    assert answer.read_text() == "1"
