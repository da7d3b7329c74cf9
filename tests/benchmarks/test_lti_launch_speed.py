"""Server time of an LTI 1.3 launch (the POST of the signed id_token: state, signature with the
platform's keyset from the cache, nonce, django-lti's records, account, enrolment, sign-in,
redirect) against a plain signed-in page view (the student's home page) in the same run.

Run on demand: RUN_BENCHMARKS=1 pytest tests/benchmarks/test_lti_launch_speed.py -s
(and with DATABASE_URL=postgres://... for PostgreSQL). The launches come from lti1p3platform
on a real HTTP server; only the tool's handling of the launch POST is timed (in-process, with
Django's test client). Prints p50/p90 of both and their ratio; asserts no time.
"""

import statistics
import time
from urllib.parse import urlsplit

import pytest
from django.core.cache import cache
from django.test import Client
from lti_tool.models import Key

from lti.models import CourseLink
from tests.lti.lms_server import LmsServer
from tests.lti.platform import INSTRUCTOR, LEARNER, LaunchSpec, Platform, parse_launch_form

pytestmark = pytest.mark.benchmark

RUNS = 60
STUDENTS = 20


def _prepare_launch(platform: Platform, client: Client, spec: LaunchSpec) -> dict[str, str]:
    """The OIDC steps before the launch POST (not timed): LMS link -> tool login (cookie
    check passed) -> platform authorisation; returns the launch form's fields."""
    import requests

    start = requests.get(platform.launch_url(spec), allow_redirects=False, timeout=10)
    login = urlsplit(start.headers["Location"])
    answer = client.get(f"{login.path}?{login.query}&lti1p3_new_window=1")
    assert answer.status_code == 302
    auth = requests.get(answer["Location"], timeout=10)
    _, fields = parse_launch_form(auth.text)
    return fields


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def test_launch_server_time_beside_a_signed_in_page_view(module_05):
    cache.clear()
    Key.objects.generate()
    server = LmsServer().start()
    try:
        platform = Platform(server, "http://testserver")
        platform.register_in_tool()
        tool = Client()
        teacher = _prepare_launch(platform, tool, LaunchSpec("teacher", [INSTRUCTOR]))
        assert tool.post("/lti/launch/", teacher).status_code == 302
        course = CourseLink.objects.get().course
        viewer = Client()
        viewer.force_login(course.enrollments.get().user)
        assert viewer.get("/").status_code == 200

        launches, pages = [], []
        for run in range(RUNS + 2):
            client = Client()
            fields = _prepare_launch(platform, client,
                                     LaunchSpec(f"student-{run % STUDENTS}", [LEARNER],
                                                name=f"Student {run % STUDENTS}"))
            begin = time.perf_counter()
            page = viewer.get("/")
            page_time = time.perf_counter() - begin
            begin = time.perf_counter()
            response = client.post("/lti/launch/", fields)
            launch_time = time.perf_counter() - begin
            assert page.status_code == 200
            assert response.status_code == 302, response.content[:300]
            if run >= 2:  # the first launches fetch the keyset and warm the templates
                launches.append(launch_time)
                pages.append(page_time)
        keyset_fetches = len(server.received("GET", "/jwks"))
    finally:
        server.stop()

    launch_p50, page_p50 = statistics.median(launches), statistics.median(pages)
    print(f"\nLTI launch (cached keyset), {RUNS} runs: p50 {launch_p50 * 1000:.1f} ms, "
          f"p90 {_p(launches, 0.9) * 1000:.1f} ms")
    print(f"signed-in home page, same run: p50 {page_p50 * 1000:.1f} ms, "
          f"p90 {_p(pages, 0.9) * 1000:.1f} ms")
    print(f"ratio launch / page (p50): {launch_p50 / page_p50:.2f}; target: launch p50 <= 100 ms;"
          f" keyset fetched {keyset_fetches} time(s)")
    assert keyset_fetches == 1
