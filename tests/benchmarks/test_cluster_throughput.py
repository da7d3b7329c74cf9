"""Requests/s through nginx with one web process and with two, in the same run (issue 45):
the one-machine cluster's web processes (gunicorn, WEB_CONCURRENCY each) behind two nginx
instances running the Compose configuration, one with the first process only, one with
both; signed-in students each open the course page, post an unreadable answer (stored,
refused as invalid: no attempt used) and preview one, without thinking, for a fixed time,
alternating between the two fronts. Prints requests/s and p50/p99 per front and the ratio;
asserts no time, only that no request failed.

  DATABASE_URL=postgres://postgres@127.0.0.1:5432/gs_bench CELERY_BROKER_URL=redis://127.0.0.1:6379/8 \\
  RUN_BENCHMARKS=1 pytest tests/benchmarks/test_cluster_throughput.py -s

CLUSTER_CLIENTS (12), CLUSTER_SECONDS (20 per round, 2 rounds each) and
CLUSTER_WEB_CONCURRENCY (2) change the load.
"""

import os
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import pytest
import urllib3
from django.db import connection

from courses.models import Part
from tests.benchmarks.timing import p50_p99
from tests.deploy.cluster import Cluster, nginx_running, web_start, worker_start
from tests.deploy.processes import process_stop
from tests.deploy.test_cluster import Student
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.benchmark
CLIENTS = int(os.environ.get("CLUSTER_CLIENTS", "12"))
SECONDS = float(os.environ.get("CLUSTER_SECONDS", "20"))
CONCURRENCY = int(os.environ.get("CLUSTER_WEB_CONCURRENCY", "2"))


def _round(students: list[Student], course: str, part: int, seconds: float) -> list[float]:
    """Every student works without pause for `seconds`; the latencies (ms) of every request."""
    latencies: list[float] = []
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def work(student: Student) -> None:
        while time.monotonic() < deadline:
            for step in ("page", "answer", "preview"):
                started = time.perf_counter()
                if step == "page":
                    student.open_course(course)
                elif step == "answer":
                    response = student.send(
                        "POST", f"/courses/{course}/parts/{part}/answer/", "answer",
                        data={"csrfmiddlewaretoken": student.csrf, "answer": "0.85^^40"},
                        headers={"X-Answer-Fragment": "1"})
                    assert response.status_code == 200, response.status_code
                else:
                    response = student.send("GET", f"/courses/{course}/parts/{part}/preview/",
                                             "preview", params={"answer": "0.85^40"})
                    assert response.status_code == 200, response.status_code
                with lock:
                    latencies.append((time.perf_counter() - started) * 1000)

    with ThreadPoolExecutor(max_workers=len(students)) as pool:
        for done in [pool.submit(work, student) for student in students]:
            done.result()
    return latencies


def test_requests_per_second_with_one_and_two_web_processes(transactional_db, broker_url, course,
                                                            tmp_path):
    if connection.vendor != "postgresql" or not broker_url.startswith("redis"):
        pytest.skip("runs on PostgreSQL and Redis")
    urllib3.disable_warnings(urllib3.exceptions.InsecureRequestWarning)
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    for index in range(CLIENTS):
        EnrollmentFactory(user=UserFactory(username=f"bench{index}"), course=course)
    with ExitStack() as stack:
        processes = []
        stack.callback(lambda: [process_stop(p.process) for p in processes])
        processes.append(worker_start(tmp_path, "worker1"))
        webs = [web_start(tmp_path, f"web{n}", concurrency=CONCURRENCY) for n in (1, 2)]
        processes += webs
        fronts = {}
        for label, ports in (("one web process", [webs[0].port]),
                             ("two web processes", [w.port for w in webs])):
            _, https = stack.enter_context(nginx_running(tmp_path / label.replace(" ", "-"), ports))
            cluster = Cluster(webs=webs, https_port=https)
            students = [Student(cluster, f"bench{index}") for index in range(CLIENTS)]
            for student in students:
                student.sign_in()
                student.open_course(course.slug)
            fronts[label] = students
        for students in fronts.values():  # warm-up: every gunicorn worker loads the graders
            _round(students, course.slug, part.pk, 5)
        results: dict[str, list[tuple[float, list[float]]]] = {label: [] for label in fronts}
        for _ in range(2):
            for label, students in fronts.items():
                latencies = _round(students, course.slug, part.pk, SECONDS)
                results[label].append((len(latencies) / SECONDS, latencies))

    print(f"\n{CLIENTS} clients without think time, {SECONDS:.0f} s rounds, "
          f"gunicorn {CONCURRENCY} workers per web process, {os.cpu_count()} cores:")
    rates = {}
    for label, rounds in results.items():
        rates[label] = statistics.mean(rate for rate, _ in rounds)
        p50, p99 = p50_p99([ms for _, latencies in rounds for ms in latencies])
        each = ", ".join(f"{rate:.1f}" for rate, _ in rounds)
        print(f"  {label}: {rates[label]:.1f} requests/s (rounds {each}), "
              f"p50 {p50:.0f} ms, p99 {p99:.0f} ms")
    print(f"  two / one: {rates['two web processes'] / rates['one web process']:.2f}")
