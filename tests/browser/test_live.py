"""Live mode in real browsers: the projector and three students' phones open at once on the
ASGI server (daphne, as `bin/run` serves it), a real Celery worker running the lab.

The students join with the code, answer; the projector's distribution grows without a
reload; the instructor runs the lab; each phone shows its own verdict. A fourth student
without JavaScript answers with the plain form and reloads to see the verdict; without
JavaScript the projector says it needs it.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from courses.models import Enrollment
from tests.factories import TEST_PASSWORD, EnrollmentFactory, UserFactory
from tests.workers import ROOT, test_database_url

pytestmark = pytest.mark.services

VERDICT_TIMEOUT = 90_000  # ms: a worker starts cold, then the lab and the grading


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def asgi_server(transactional_db, tmp_path: Path) -> Iterator[str]:
    """`manage.py runserver` (daphne's: pages and WebSockets) on the test database."""
    port = _free_port()
    log = tmp_path / "asgi.log"
    env = {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
    }
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload", "--insecure"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                os.killpg(process.pid, signal.SIGKILL)
                raise AssertionError(f"the ASGI server did not start:\n{log.read_text()}") from None
            time.sleep(0.3)
    yield f"http://127.0.0.1:{port}"
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)


def _sign_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(TEST_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your courses")).to_be_visible()


def _student(browser: Browser, base: str, course, name: str, *, javascript: bool = True) -> Page:
    user = UserFactory(username=name)
    EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
    page = browser.new_context(java_script_enabled=javascript).new_page()
    _sign_in(page, base, name)
    return page


def test_the_room_answers_the_projector_follows_and_run_reveals_each_verdict(
    browser: Browser, asgi_server: str, celery_worker, course, irene
) -> None:
    base = asgi_server
    projector = browser.new_context().new_page()
    _sign_in(projector, base, "irene")
    projector.goto(f"{base}/courses/{course.slug}/dashboard/live/")
    projector.get_by_label("Question").select_option(
        label="Prediction · Predict: the analogy arrow — Where does the copied arrow end?"
    )
    projector.get_by_role("button", name="Open for the room").click()
    code = projector.locator("#live-code").inner_text().strip()
    expect(projector.locator(".live-qr svg")).to_be_visible()
    expect(projector.locator("#live-count")).to_have_text("0")

    phones = [_student(browser, base, course, name) for name in ("ana_p", "ben_p", "chloe_p")]
    offline = _student(browser, base, course, "dan_p", javascript=False)
    for page in [*phones, offline]:  # join with the code typed, as read off the projector
        page.goto(f"{base}/live/")
        page.get_by_label("The code on the projector").fill(code.lower())
        page.get_by_role("button", name="Join").click()
        expect(page.get_by_role("button", name="Lock in my prediction")).to_be_visible()

    choices = ["Near queen", "Near woman", "Near queen"]
    for count, (page, choice) in enumerate(zip(phones, choices, strict=True), start=1):
        page.get_by_label(choice).check()
        page.get_by_role("button", name="Lock in my prediction").click()
        expect(page.locator(".live-mine")).to_be_visible()
        expect(projector.locator("#live-count")).to_have_text(str(count))  # no reload
    expect(
        projector.locator(".live-bar").filter(has_text="Near queen").locator(".live-bar-count")
    ).to_have_text("2")
    expect(
        projector.locator(".live-bar").filter(has_text="Near woman").locator(".live-bar-note")
    ).to_contain_text("does not move the arrow")

    offline.get_by_label("Near king").check()
    offline.get_by_role("button", name="Lock in my prediction").click()
    expect(offline.locator(".live-mine")).to_have_text(
        "Near king: the arrow is too short to move it far")
    expect(projector.locator("#live-count")).to_have_text("4")
    assert not any(f"{n}_p" in projector.content() for n in ("ana", "ben", "chloe", "dan"))

    projector.get_by_role("button", name="Run the lab").click()
    expect(projector.locator("#live-measured-value")).to_have_text("Near queen", timeout=VERDICT_TIMEOUT)
    expect(projector.locator(".live-verdicts")).to_contain_text("2 correct", timeout=VERDICT_TIMEOUT)
    for page, outcome in zip(phones, ["Correct", "Incorrect", "Correct"], strict=True):
        expect(page.locator("#live-verdict")).to_contain_text(outcome, timeout=VERDICT_TIMEOUT)
        expect(page.locator("#live-verdict")).to_contain_text("The lab measured: Near queen")

    expect(offline.locator("#live-verdict")).to_be_hidden()  # no script: reload to see it
    offline.reload()
    expect(offline.locator("#live-verdict")).to_contain_text("Incorrect")

    no_js = browser.new_context(java_script_enabled=False).new_page()
    _sign_in(no_js, base, "irene")
    no_js.goto(projector.url)
    expect(no_js.get_by_text("The projector page needs JavaScript")).to_be_visible()
