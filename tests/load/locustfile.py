"""The deadline rush: Locust users for `bin/load` (see docs/scaling.md, "The deadline rush (load test)").

- `StudentUser`: a student in the hour before the deadline. Takes the next account of the
  plan (`tests/load/seed.py`); a share of them (LOAD_SIGN_IN_SHARE, default 0.1) signs in
  through the form like a browser (GET the page, POST with its CSRF token), the others
  arrive with the session they opened earlier in the week. Opens the module, then for each
  auto-graded part: previews an answer, submits an unreadable one (invalid), a wrong one (a
  misconception), previews again and submits the right one; commits its predictions (each
  requests a lab run on a Celery worker); runs a lab with its own parameters and polls the
  run until the worker has finished it (the parts and the labs in a random order); signs
  out and takes the next account.
- `InstructorUser`: pages through the dashboard (progress matrix sorted by name and by
  total, statistics, misconceptions, review queue).
- `LmsUser`: an LMS key pulling the gradebook through the REST API a page at a time
  (`limit`, `after`), a few pages per pull.
- `ExamStudent` (`bin/load --exam`, issue 40): a student in the same minute as the whole
  class: signs in like `StudentUser` (form or earlier session), opens the quiz, starts it
  (the POST and the redirect to the paper, one request), then every 10 s autosaves one field
  as the paper's script does (JSON save, header X-Exam-Save: 1) until the run ends.
- `BaselineUser`: the ceiling of the stack, POSTs to the bare view that inserts one row
  (`config/load_baseline.py`, only under `config.settings.load`). Run alone, with no wait.

Every request is named by its endpoint (`ENDPOINTS`), so Locust's table has one row per
endpoint. Any failure (an unexpected status, a refused answer, a lab run that does not
finish in LOAD_LAB_TIMEOUT seconds) is counted, written to LOAD_ERRORS_FILE and makes the
run exit non-zero.
"""

import itertools
import json
import os
import random
import re
import time
from functools import cache
from pathlib import Path
from typing import Any

from locust import HttpUser, between, constant, constant_pacing, events, task
from locust.exception import StopUser

from tests.load.endpoints import ENDPOINTS

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
EXAM_FIELD = re.compile(r'name="(q[0-9a-f-]{36}-[^"]+)"')
EXAM_SAVE_EVERY = float(os.environ.get("LOAD_EXAM_SAVE_EVERY", "10"))
ERROR_MESSAGE = re.compile(r'<p class="message error">([^<]*)</p>')
SIGN_IN_SHARE = float(os.environ.get("LOAD_SIGN_IN_SHARE", "0.1"))
LAB_TIMEOUT = float(os.environ.get("LOAD_LAB_TIMEOUT", "60"))
DASHBOARD_PAGES = int(os.environ.get("LOAD_DASHBOARD_PAGES", "5"))
GRADEBOOK_PAGES = int(os.environ.get("LOAD_GRADEBOOK_PAGES", "5"))
GRADEBOOK_PAGE_SIZE = int(os.environ.get("LOAD_GRADEBOOK_PAGE_SIZE", "500"))


@cache
def plan() -> dict[str, Any]:
    """The plan written by tests/load/seed.py (LOAD_PLAN, default var/load/plan.json)."""
    return json.loads(Path(os.environ.get("LOAD_PLAN", "var/load/plan.json")).read_text())


@cache
def _accounts() -> "itertools.count[int]":
    return itertools.count()


def next_student() -> str:
    """The next unused student of this run's slice of the plan (LOAD_ACCOUNTS="start:end",
    default all); StopUser when the slice is used up (a reused account would be refused)."""
    students = plan()["students"]
    start, _, end = os.environ.get("LOAD_ACCOUNTS", f"0:{len(students)}").partition(":")
    index = int(start) + next(_accounts())
    if index >= min(int(end), len(students)):
        raise StopUser()
    return str(students[index])


# --- failures: counted here too, so that a reset of the statistics never hides one ---------
FAILURES: dict[str, list[str]] = {}


@events.request.add_listener
def _count_failure(name: str, exception: BaseException | None, **_: Any) -> None:
    if exception is not None:
        FAILURES.setdefault(name, []).append(str(exception)[:300])


@events.quitting.add_listener
def _report_failures(environment: Any, **_: Any) -> None:
    path = os.environ.get("LOAD_ERRORS_FILE")
    if path:
        Path(path).write_text(json.dumps(FAILURES, indent=1))
    if FAILURES:
        environment.process_exit_code = 1


class BrowserUser(HttpUser):
    """Shared: a browser's form posts with the CSRF token of the page last read."""

    abstract = True
    csrf = ""

    def _remember_csrf(self, text: str) -> None:
        found = CSRF_INPUT.search(text)
        self.csrf = found.group(1) if found else self.client.cookies.get("csrftoken", "")

    def get_page(self, url: str, endpoint: str, **kwargs: Any) -> str:
        """GET an HTML page; 200 or a failure."""
        with self.client.get(url, name=ENDPOINTS[endpoint], catch_response=True, **kwargs) as r:
            if r.status_code != 200:
                r.failure(f"status {r.status_code}")
                return ""
            self._remember_csrf(r.text)
            return r.text

    def post_form(self, url: str, endpoint: str, data: dict[str, str], *, expect: int = 302,
                  location: str = "") -> str:
        """POST a form with the CSRF token; `expect` status (and a redirect containing
        `location`) or a failure. Returns the redirect's target."""
        with self.client.post(url, data={"csrfmiddlewaretoken": self.csrf, **data},
                              headers={"Referer": f"{self.host}{url}"}, name=ENDPOINTS[endpoint],
                              allow_redirects=False, catch_response=True) as r:
            target = r.headers.get("Location", "")
            if r.status_code != expect or location not in target:
                r.failure(f"status {r.status_code} to {target!r}, expected {expect} to {location!r}")
                return ""
            return target

    def become_next_student(self) -> None:
        """Be the next student of the slice: signed in through the form for SIGN_IN_SHARE of
        them, the others with the session the seed made (a returning browser)."""
        username = next_student()
        self.client.cookies.clear()
        if random.random() < SIGN_IN_SHARE:
            self.sign_in(username)
        else:
            self.client.cookies.set("sessionid", plan()["sessions"][username])

    def sign_in(self, username: str) -> None:
        """Sign in through the form as a browser does."""
        self.client.cookies.clear()
        self.get_page("/accounts/login/", "sign_in_page")
        self.post_form("/accounts/login/", "sign_in",
                       {"username": username, "password": plan()["password"]}, location="/")


class StudentUser(BrowserUser):
    weight = 20
    wait_time = between(1, 3)  # a student reads, thinks and types between two requests

    @task
    def work_before_the_deadline(self) -> None:
        """One student's visit: see the module docstring."""
        course = plan()["course"]
        self.become_next_student()
        module = f"/courses/{course}/"
        self.get_page(module, "module")
        # In the order a student picks: the auto-graded parts, and the labs (predictions first).
        activities: list[dict[str, Any] | None] = [*plan()["parts"], None]  # None: the labs
        random.shuffle(activities)
        for part in activities:
            if part is None:
                self._predict_then_run(module, course)
            else:
                self._answer(module, part)
        self.wait()
        self.post_form("/accounts/logout/", "sign_out", {}, location="/accounts/login/")

    def _predict_then_run(self, module: str, course: str) -> None:
        for prediction in plan()["predictions"]:
            self.wait()
            self._submit(module, prediction["id"], prediction["answer"], "predict")
        self.wait()
        self._run_a_lab(course, random.choice(plan()["labs"]))

    def _answer(self, module: str, part: dict[str, Any]) -> None:
        preview = f"{module}parts/{part['id']}/preview/"
        self.wait()
        self.client.get(preview, params={"answer": part["wrong"]}, name=ENDPOINTS["preview"])
        for kind in ("invalid", "wrong"):
            self.wait()
            self._submit(module, part["id"], part[kind], f"submit_{kind}")
        self.wait()
        self.client.get(preview, params={"answer": part["right"]}, name=ENDPOINTS["preview"])
        self.wait()
        self._submit(module, part["id"], part["right"], "submit_right")

    def _submit(self, module: str, part_id: int, answer: str, endpoint: str) -> None:
        """POST the answer form as the page's script does (answered in place, issue 21): the
        reply is the part's new state, where a refusal would be shown at the part (a failure
        of the submit). The module page is not read again."""
        url = f"{module}parts/{part_id}/answer/"
        with self.client.post(url, data={"csrfmiddlewaretoken": self.csrf, "answer": answer},
                              headers={"Referer": f"{self.host}{module}",
                                       "X-Answer-Fragment": "1"},
                              name=ENDPOINTS[endpoint], allow_redirects=False,
                              catch_response=True) as r:
            if r.status_code != 200 or f'id="part-{part_id}"' not in r.text:
                r.failure(f"status {r.status_code}, not the part's fragment")
            elif "part-notice" in r.text:
                r.failure("refused at the part")

    def _run_a_lab(self, course: str, lab: dict[str, Any]) -> None:
        """Request a run with parameters of the student's own, then poll its status like the
        run page does (every second) until the worker has finished it."""
        url = f"/courses/{course}/labs/{lab['slug']}/"
        self.get_page(url, "lab_page")
        params = {name: self._value(spec) for name, spec in lab["params"].items()}
        started = time.perf_counter()
        run_page = self.post_form(url, "lab_request", params, location=f"/courses/{course}/runs/")
        if not run_page:
            return
        status_url = run_page.split("#")[0].rstrip("/") + "/status/"
        status: dict[str, Any] = {}
        while time.perf_counter() - started < LAB_TIMEOUT:
            time.sleep(1)
            response = self.client.get(status_url, name=ENDPOINTS["lab_status"])
            status = response.json() if response.ok else {}
            if status.get("finished"):
                break
        failed = None if status.get("status") == "succeeded" else RuntimeError(
            f"lab run not succeeded after {LAB_TIMEOUT:.0f} s: {status}")
        events.request.fire(request_type="LAB", name=ENDPOINTS["lab_finished"],
                            response_time=(time.perf_counter() - started) * 1000,
                            response_length=0, exception=failed, context={})

    @staticmethod
    def _value(spec: dict[str, Any]) -> str:
        # The lower quarter of each range: runs of the size students mostly pick.
        low, high = spec["min"], spec["min"] + (spec["max"] - spec["min"]) / 4
        return str(random.randint(int(low), max(int(low), int(high)))) if spec["type"] == "int" \
            else f"{random.uniform(low, high):.3f}"


class ExamStudent(BrowserUser):
    """A student taking the quiz with the whole class: see the module docstring."""

    wait_time = constant_pacing(EXAM_SAVE_EVERY)  # one autosave every 10 s, however long it takes
    save_url = ""
    fields: list[str] = []

    def on_start(self) -> None:
        """Sign in as the next student of the slice and start the quiz once."""
        course, quiz = plan()["course"], plan()["exam"]
        self.become_next_student()
        page = f"/courses/{course}/assessments/{quiz}/"
        self.get_page(page, "exam_page")
        with self.client.post(f"{page}start/", data={"csrfmiddlewaretoken": self.csrf},
                              headers={"Referer": f"{self.host}{page}"},
                              name=ENDPOINTS["exam_start"], catch_response=True) as r:
            self.fields = EXAM_FIELD.findall(r.text) if r.status_code == 200 else []
            if "/attempts/" not in r.url or not r.history or not self.fields:
                r.failure(f"status {r.status_code} at {r.url}: not the paper")
                raise StopUser()
            self._remember_csrf(r.text)
            self.save_url = r.url.split("#")[0].split("?")[0].rstrip("/") + "/save/"
            self.paper = r.url

    @task
    def autosave(self) -> None:
        """Save one field as the paper's script does; `{saved_at}` or a failure."""
        field = random.choice(self.fields)
        with self.client.post(self.save_url,
                              data={"csrfmiddlewaretoken": self.csrf,
                                    field: str(random.randint(1, 999))},
                              headers={"Referer": self.paper, "X-Exam-Save": "1",
                                       "Accept": "application/json"},
                              name=ENDPOINTS["exam_save"], allow_redirects=False,
                              catch_response=True) as r:
            if r.status_code != 200 or "saved_at" not in r.text:
                r.failure(f"status {r.status_code}: {r.text[:200]}")


class InstructorUser(BrowserUser):
    weight = 1
    fixed_count = 2  # the instructor and the TA, whatever the number of students
    wait_time = between(2, 5)

    def on_start(self) -> None:
        """Sign in as the next member of staff (instructor, then TA)."""
        staff = plan()["staff"]
        self.sign_in(staff[next(_staff_numbers()) % len(staff)])
        self.dashboard = f"/courses/{plan()['course']}/dashboard/"

    @task(4)
    def page_through_the_class(self) -> None:
        """Progress matrix, a few pages in one order (by name, or by total, best first)."""
        order = random.choice([{"sort": "name"}, {"sort": "total", "desc": "1"}])
        for page in range(1, DASHBOARD_PAGES + 1):
            self.get_page(self.dashboard + "progress/", "dashboard_progress",
                          params={**order, "page": str(page)})
            self.wait()

    @task(1)
    def overview(self) -> None:
        """The dashboard's front page."""
        self.get_page(self.dashboard, "dashboard")

    @task(2)
    def statistics(self) -> None:
        """Question statistics and the misconception profile."""
        self.get_page(self.dashboard + "statistics/", "dashboard_statistics")
        self.wait()
        self.get_page(self.dashboard + "misconceptions/", "dashboard_misconceptions")

    @task(1)
    def reviews(self) -> None:
        """The review queue."""
        self.get_page(self.dashboard + "reviews/", "dashboard_reviews")


@cache
def _staff_numbers() -> "itertools.count[int]":
    return itertools.count()


class LmsUser(HttpUser):
    weight = 1
    fixed_count = 1  # one LMS integration
    wait_time = between(5, 10)

    after: int | None = None  # where the last pull stopped (None: from the first student)

    @task
    def pull_the_gradebook(self) -> None:
        """Read the gradebook as the API documents a sync: a page of LOAD_GRADEBOOK_PAGE_SIZE
        students at a time (`limit`, then `after` = the page's `next_after`), a few pages per
        pull; the next pull goes on where this one stopped, from the first page once the
        last one is read."""
        headers = {"Authorization": f"Bearer {plan()['api_token']}"}
        url = f"/api/v1/courses/{plan()['course']}/gradebook/"
        for _ in range(GRADEBOOK_PAGES):
            params = {"limit": str(GRADEBOOK_PAGE_SIZE)}
            if self.after is not None:
                params["after"] = str(self.after)
            with self.client.get(url, params=params, headers=headers, name=ENDPOINTS["gradebook"],
                                 catch_response=True) as r:
                if r.status_code != 200:
                    r.failure(f"status {r.status_code}")
                    return
                self.after = r.json().get("next_after")
            self.wait()
            if self.after is None:
                break


class BaselineUser(HttpUser):
    """The ceiling of the stack: one INSERT per request, no think time."""

    wait_time = constant(0)

    @task
    def insert_one_row(self) -> None:
        """POST to the bare view; 201 or a failure."""
        with self.client.post("/load/baseline/", data={"note": "load"}, name=ENDPOINTS["baseline"],
                              catch_response=True) as r:
            if r.status_code != 201:
                r.failure(f"status {r.status_code}")
