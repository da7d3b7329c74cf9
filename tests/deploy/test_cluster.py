"""A cluster on one machine (issue 45): two web processes and two Celery workers on ports of
their own, one PostgreSQL and one Redis, Debian's nginx in front with the Compose
deployment's configuration, round-robin. Students sign in through one web process and
answer through the other; lab runs queued through both are run exactly once across the two
workers; one web process and one worker are killed mid-rush and nothing acknowledged is
lost; of two beats only one sends the schedule."""

import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests
import urllib3
from django.db import connection
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector

from courses.models import Course, Lab, Part
from grading.models import Submission
from labs.models import LabRun
from tests.deploy.cluster import Cluster, cluster_running
from tests.factories import TEST_PASSWORD, EnrollmentFactory, UserFactory
from tests.workers import wait_for

pytestmark = pytest.mark.services
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
STUDENTS = 12
RETRIES = 4


class Student:
    """One student's browser through nginx, noting which web process answered each request."""

    def __init__(self, cluster: Cluster, username: str) -> None:
        self.base = cluster.url
        self.username = username
        self.http = requests.Session()
        self.csrf = ""
        self.served: list[tuple[str, str]] = []  # (what, upstream)

    def send(self, method: str, path: str, what: str, **kwargs: Any) -> requests.Response:
        """The request, sent again (as a person would press again) when the web process
        behind it died: a 502 from nginx or a dropped connection."""
        # A browser's Referer: Django checks it on HTTPS forms.
        headers = {"Referer": self.base + path, **kwargs.pop("headers", {})}
        for attempt in range(RETRIES):
            try:
                # verify per request: a REQUESTS_CA_BUNDLE in the environment overrides the
                # session's (nginx has a self-signed certificate here).
                response = self.http.request(method, self.base + path, timeout=60, verify=False,
                                             allow_redirects=False, headers=headers, **kwargs)
            except requests.ConnectionError:
                time.sleep(0.5 * (attempt + 1))
                continue
            if response.status_code not in (502, 503, 504):
                # nginx lists every upstream it tried ("A, B" when A had died): B served it.
                upstream = response.headers.get("X-Upstream", "").split(",")[-1].strip()
                self.served.append((what, upstream))
                found = CSRF.search(response.text)
                if found:
                    self.csrf = found.group(1)
                return response
            time.sleep(0.5 * (attempt + 1))
        raise AssertionError(f"{self.username}: {method} {path} failed {RETRIES} times")

    def sign_in(self) -> None:
        self.send("GET", "/accounts/login/", "sign-in page")
        response = self.send("POST", "/accounts/login/", "sign-in", data={
            "csrfmiddlewaretoken": self.csrf, "username": self.username, "password": TEST_PASSWORD})
        assert response.status_code == 302 and response.headers["Location"] == "/", response.text[:500]

    def open_course(self, course: str) -> None:
        response = self.send("GET", f"/courses/{course}/", "course page")
        assert response.status_code == 200, response.status_code

    def answer(self, course: str, part: int, text: str) -> None:
        response = self.send("POST", f"/courses/{course}/parts/{part}/answer/", "answer",
                              data={"csrfmiddlewaretoken": self.csrf, "answer": text},
                              headers={"X-Answer-Fragment": "1"})
        assert response.status_code == 200 and f'id="part-{part}"' in response.text, \
            (response.status_code, response.headers.get("Location"), response.text[:300])
        assert "part-notice" not in response.text, response.text  # stored, not refused

    def run_lab(self, course: str, lab: Lab) -> str:
        self.send("GET", f"/courses/{course}/labs/{lab.slug}/", "lab page")
        params = {name: str(spec["default"]) for name, spec in lab.param_schema.items()
                  if "default" in spec}
        response = self.send("POST", f"/courses/{course}/labs/{lab.slug}/", "lab run",
                              data={"csrfmiddlewaretoken": self.csrf, **params})
        assert response.status_code == 302 and "/runs/" in response.headers["Location"], \
            (response.status_code, response.text[:300])
        return response.headers["Location"].rstrip("/").split("/")[-1]


def _executions(metrics: Path, outcome: str) -> float:
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(metrics))
    return registry.get_sample_value("grader_lab_run_executions_total", {"outcome": outcome}) or 0.0


@pytest.fixture
def cluster(transactional_db, broker_url, tmp_path):
    if connection.vendor != "postgresql" or not broker_url.startswith("redis"):
        pytest.skip("the one-machine cluster runs on PostgreSQL and Redis (CI's postgres pass)")
    urllib3.disable_warnings(urllib3.exceptions.InsecureRequestWarning)
    with cluster_running(tmp_path) as running:
        yield running


def test_a_rush_on_two_web_processes_and_two_workers_loses_nothing_when_one_of_each_dies(
        cluster, course: Course):
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    lab = Lab.objects.get(slug="vanishing-gradient")
    for index in range(STUDENTS):
        EnrollmentFactory(user=UserFactory(username=f"rush{index}"), course=course)
    students = [Student(cluster, f"rush{index}") for index in range(STUDENTS)]
    answered: dict[str, list[str]] = {}
    runs: list[str] = []
    started = threading.Semaphore(0)

    def visit(student: Student) -> None:
        student.sign_in()
        student.open_course(course.slug)
        # A misconception (linear decay), a lab run, then the right answer.
        student.answer(course.slug, part.pk, "0.85*40")
        answered.setdefault(student.username, []).append("0.85*40")
        runs.append(student.run_lab(course.slug, lab))
        started.release()
        student.answer(course.slug, part.pk, "0.85^40")
        answered[student.username].append("0.85^40")

    with ThreadPoolExecutor(max_workers=6) as pool:
        visits = [pool.submit(visit, student) for student in students]
        for _ in range(STUDENTS // 3):  # mid-rush: a third of the runs are requested
            while not started.acquire(timeout=1):
                failed = [v.exception() for v in visits if v.done() and v.exception()]
                assert not failed, failed
        cluster.webs[0].kill()
        cluster.workers[0].kill()
        for visit_done in visits:
            visit_done.result(timeout=300)

    # Sessions are valid across web processes: signed in on one, answered on the other.
    upstreams = {f"127.0.0.1:{web.port}" for web in cluster.webs}
    assert {u for s in students for _, u in s.served} == upstreams
    crossed = [s.username for s in students
               if any(u != upstream for what, upstream in s.served if what == "sign-in"
                      for kind, u in s.served if kind == "answer")]
    assert len(crossed) >= 2, [s.served for s in students]  # before the kill, most do
    assert {u for s in students for what, u in s.served if what == "lab run"} == upstreams

    # Nothing acknowledged is lost: every answer a student saw graded is stored and graded.
    for username, texts in answered.items():
        stored = list(Submission.objects.filter(student__username=username, part=part)
                      .values_list("raw_answer", flat=True))
        assert sorted(set(texts)) == sorted(set(stored)), (username, texts, stored)
    wait_for(lambda: not Submission.objects.filter(part=part, outcome="pending").exists(), timeout=60)

    # Every run requested (through both web processes) succeeded, each executed to success
    # exactly once across the two workers, the killed one's share re-queued to the other.
    assert len(runs) == STUDENTS
    wait_for(lambda: LabRun.objects.filter(course=course, status=LabRun.Status.SUCCEEDED).count()
             == LabRun.objects.filter(course=course).count(), timeout=120, interval=0.5)
    stored_runs = LabRun.objects.filter(course=course).values_list("uuid", flat=True)
    assert {str(uuid) for uuid in stored_runs} >= set(runs)
    total = LabRun.objects.filter(course=course).count()
    succeeded = sum(_executions(w.metrics, "succeeded") for w in cluster.workers if w.metrics)
    # Never executed to success twice. The count is taken after the run's commit, so a worker
    # SIGKILLed between the two (its one pool process) may leave one success uncounted: the
    # database says it succeeded, and its redelivery finds it finished.
    assert total - 1 <= succeeded <= total, (succeeded, total)

    # One beat sent the schedule; the other stood by all along.
    senders = [beat for beat in cluster.beats if "Sending due task" in beat.text()]
    assert len(senders) == 1, [beat.text()[-2000:] for beat in cluster.beats]
    [standby] = [beat for beat in cluster.beats if beat is not senders[0]]
    assert "stands by" in standby.text()
