"""Graded submissions per second through the API, served by gunicorn on PostgreSQL, against a
bare Django JSON endpoint served by the same gunicorn in the same run.

Run on demand, on PostgreSQL:
  DATABASE_URL=postgres://postgres@127.0.0.1:5432/<you> RUN_BENCHMARKS=1 \
      .venv-test/bin/pytest tests/benchmarks/test_api_throughput.py -s
Prints requests/s, p50 and p99 for each scenario and the ratios to the bare endpoint; the
only assertions are that every request succeeded and every graded answer was stored once.
"""

import http.client
import json
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pytest
from django.contrib.auth.models import User
from django.db import connection

from api.keys import api_key_create
from courses.models import Exercise, Part
from grading.models import Submission
from tests import workers
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.benchmark

ROOT = Path(__file__).resolve().parents[2]
DURATION = float(os.environ.get("BENCH_SECONDS", "8"))
WARMUP = 1.5
WORKERS = int(os.environ.get("BENCH_WORKERS", str(2 * (os.cpu_count() or 1) + 1)))  # gunicorn's advice
CLIENTS = int(os.environ.get("BENCH_CLIENTS", str(WORKERS * 2)))
STUDENTS = 100
CONN_MAX_AGE = int(os.environ.get("BENCH_CONN_MAX_AGE", "60"))

NUMERIC = ["0.85^40", "0.0015", "1.5e-3", "0.5", "exp(40 ln 0.85)", "0.85*40", "1 - 0.85^40", "2.5e-3"]
SYMBOLIC = ["sigma^(T - t)", "sigma^T / sigma^t", "exp((T - t) ln(sigma))", "sigma*(T - t)",
            "sigma^(T - t - 1)", "(sigma^(T-t))^1"]


@dataclass
class Scenario:
    name: str
    path: str
    bodies: list[dict]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _client(port: int, path: str, headers: dict, bodies: list[bytes], until: float,
            measure_from: float, queue: "multiprocessing.Queue[tuple[list[float], dict[int, int]]]") -> None:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    try:
        _loop(port, path, headers, bodies, until, measure_from, latencies, statuses)
    finally:
        queue.put((latencies, statuses))


def _loop(port: int, path: str, headers: dict, bodies: list[bytes], until: float, measure_from: float,
          latencies: list[float], statuses: dict[int, int]) -> None:
    index = 0
    while time.monotonic() < until:
        body = bodies[index % len(bodies)]
        index += 1
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        conn.close()
        if started >= measure_from:
            latencies.append(time.monotonic() - started)
            statuses[response.status] = statuses.get(response.status, 0) + 1


def _run(port: int, scenario: Scenario, headers: dict, seconds: float = DURATION) -> dict:
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    start = time.monotonic()
    measure_from, until = start + WARMUP, start + WARMUP + seconds
    encoded = [json.dumps(b).encode() for b in scenario.bodies]
    processes = []
    for n in range(CLIENTS):
        shifted = encoded[n * 7 % len(encoded):] + encoded[:n * 7 % len(encoded)]
        processes.append(context.Process(target=_client, args=(port, scenario.path, headers, shifted,
                                                               until, measure_from, queue)))
    for p in processes:
        p.start()
    results = [queue.get(timeout=seconds + 120) for _ in processes]
    for p in processes:
        p.join()
    latencies = sorted(x for lat, _ in results for x in lat)
    statuses: dict[int, int] = {}
    for _, counts in results:
        for code, count in counts.items():
            statuses[code] = statuses.get(code, 0) + count
    return {
        "name": scenario.name, "requests": len(latencies), "per_second": len(latencies) / seconds,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "statuses": statuses,
    }


@pytest.fixture
def gunicorn(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("this benchmark runs on PostgreSQL: set DATABASE_URL=postgres://...")
    port = _free_port()
    # Persistent connections, as a production DATABASE_URL would ask (?conn_max_age=60).
    database_url = f"{workers.test_database_url()}?conn_max_age={CONN_MAX_AGE}"
    env = {**os.environ, "DATABASE_URL": database_url,
           "DJANGO_SETTINGS_MODULE": "tests.benchmarks.api_bench_settings",
           "API_THROTTLE_KEY": "100000000/min", "API_THROTTLE_USER": "100000000/min"}
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", str(WORKERS),
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        try:
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            probe.request("POST", "/bench/bare/echo/", body=b"{}")
            if probe.getresponse().status == 201:
                break
        except OSError:
            time.sleep(0.2)
    if process.poll() is not None:
        pytest.fail("gunicorn did not start")
    yield port
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=30)


def test_graded_submissions_per_second_against_a_bare_json_endpoint(gunicorn, course, irene) -> None:
    numeric = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    Exercise.objects.filter(pk=numeric.exercise_id).update(max_attempts=0)  # unlimited for the load
    template = numeric.exercise
    symbolic_exercise = Exercise.objects.create(
        module=template.module, section=template.section, slug="bench-symbolic", kind="apply",
        title="Bench: symbolic", prompt="Bound after T - t steps", order=99, max_attempts=0)
    symbolic = Part.objects.create(
        exercise=symbolic_exercise, key="bound", answer_type="symbolic",
        spec={"type": "symbolic", "variables": ["sigma", "T", "t"], "reference": "sigma^(T-t)",
              "misconceptions": [{"answer": "sigma*(T-t)", "tag": "linear-decay", "feedback": "x"}]})
    students = []
    for _ in range(STUDENTS):
        student = cast(User, UserFactory())
        EnrollmentFactory(course=course, user=student)
        students.append(student.pk)
    token = api_key_create(course=course, name="bench", role="lms", created_by=irene).token
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    url = f"/api/v1/courses/{course.slug}/submissions/"

    numeric_bodies = [{"part": numeric.pk, "answer": a, "student": s}
                      for s in students for a in NUMERIC][: STUDENTS * 3]
    symbolic_bodies = [{"part": symbolic.pk, "answer": a, "student": s}
                       for s in students for a in SYMBOLIC][: STUDENTS * 3]
    bare = f"/bench/bare/grade/{course.slug}/"
    scenarios = [
        Scenario("bare Django, numeric", bare, numeric_bodies),
        Scenario("API numeric", url, numeric_bodies),
        Scenario("bare Django, symbolic", bare, symbolic_bodies),
        Scenario("API symbolic", url, symbolic_bodies),
        Scenario("bare Django, numeric (2)", bare, numeric_bodies),
        Scenario("API numeric (2)", url, numeric_bodies),
        Scenario("echo (no database)", "/bench/bare/echo/", [{"answer": a} for a in NUMERIC]),
    ]
    for warm_up in scenarios[:4]:  # every worker imports, connects and fills its caches first
        _run(gunicorn, warm_up, headers, seconds=2.0)
    results = {scenario.name: _run(gunicorn, scenario, headers) for scenario in scenarios}
    print(f"\ngunicorn {WORKERS} sync workers, {CLIENTS} client processes, {DURATION:.0f} s each, "
          f"PostgreSQL (conn_max_age={CONN_MAX_AGE}), {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    for r in results.values():
        print(f"  {r['name']:<26} {r['per_second']:8.1f} req/s   p50 {r['p50_ms']:7.2f} ms   "
              f"p99 {r['p99_ms']:7.2f} ms   {r['statuses']}")

    def rate(*names: str) -> float:
        return sum(results[n]["per_second"] for n in names) / len(names)

    numeric_ratio = rate("API numeric", "API numeric (2)") / rate("bare Django, numeric",
                                                                  "bare Django, numeric (2)")
    symbolic_ratio = rate("API symbolic") / rate("bare Django, symbolic")
    echo = results["echo (no database)"]["per_second"]
    print(f"  API / bare Django (same grading): numeric {numeric_ratio:.1%} (target >= 40%), "
          f"symbolic {symbolic_ratio:.1%}")
    print(f"  API numeric / echo floor: {rate('API numeric', 'API numeric (2)') / echo:.1%}")
    for r in results.values():
        assert set(r["statuses"]) == {201}, r
    api_requests = sum(r["requests"] for name, r in results.items() if name.startswith(("API", "bare")))
    stored = Submission.objects.filter(course=course).count()
    assert stored >= api_requests
    graded = Submission.objects.filter(course=course).exclude(outcome__in=["pending", "error"]).count()
    print(f"  stored submissions: {stored}, graded: {graded}")
