"""The dashboard in a real browser (Debian's Chromium via Playwright, pytest-django's live
server): an instructor opens the progress matrix, a question's wrong answers, reviews a free
answer and downloads the gradebook CSV."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop runs in this thread

import csv
import io
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

from courses.models import Part
from grading.models import Review, Submission
from grading.services import submission_create
from tests.factories import TEST_PASSWORD
from tests.instructor.conftest import build_class

pytestmark = pytest.mark.services

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-quic",
                 "--no-first-run"]
FREE_ANSWER = "One fixed-size vector must hold all 200 words, so early words are overwritten."


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Debian's Chromium; missing, it skips locally and fails in CI."""
    if not CHROMIUM.exists():
        message = f"Chromium is not installed at {CHROMIUM}"
        if os.environ.get("CI"):
            pytest.fail(f"{message} (CI must provide it)")
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "headless": True,
            "args": CHROMIUM_ARGS}


@pytest.fixture
def class_with_answers(course, irene, alice):
    build_class(course, 6)
    extend = Part.objects.get(exercise__slug="extend-bottleneck")
    return submission_create(student=alice, course=course, part=extend, raw_answer=FREE_ANSWER)


def _sign_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(TEST_PASSWORD)
    page.get_by_role("button", name="Sign in").or_(page.locator("button[type=submit]")).first.click()
    page.wait_for_load_state()


def test_instructor_reads_the_matrix_and_wrong_answers_reviews_and_downloads_csv(
    page: Page, live_server, course, class_with_answers, tmp_path
):
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    base = live_server.url
    dashboard = f"{base}/courses/{course.slug}/dashboard"
    _sign_in(page, base, "irene")

    page.goto(f"{dashboard}/progress/")
    matrix = page.locator("table.matrix")
    expect(matrix).to_contain_text("s0000")
    expect(matrix).to_contain_text("alice")
    page.get_by_role("link", name="Total", exact=True).click()
    expect(page.locator("th[aria-sort]")).to_contain_text("Total")

    page.get_by_role("link", name="Questions").click()
    page.get_by_role("link", name="Apply 1 / Largest possible size of the gradient\u2026").click()
    expect(page.get_by_role("heading", name="Wrong answers")).to_be_visible()
    wrong = page.locator("table.wrong-answers")
    expect(wrong).to_contain_text("wrong 0")
    expect(wrong).to_contain_text("linear-decay")

    page.get_by_role("link", name="Review queue").click()
    item = page.locator(f"#review-{class_with_answers.pk}")
    expect(item).to_contain_text(FREE_ANSWER)
    expect(item).to_contain_text("What a full answer contains")
    item.get_by_label("Points").fill("2")  # below the pass score (3 of 6)
    item.get_by_label("Comment for the student").fill("Now say why attention fixes it.")
    item.get_by_role("button", name="Save review").click()
    expect(page.locator(".messages")).to_contain_text("Review saved")
    expect(page.locator(f"#review-{class_with_answers.pk}")).to_have_count(0)

    page.get_by_role("link", name="Overview").click()
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Gradebook (CSV, a row per student)").click()
    path = tmp_path / "gradebook.csv"
    download_info.value.save_as(path)
    rows = list(csv.reader(io.StringIO(path.read_text())))
    assert rows[0][0] == "username" and len(rows) == 1 + 7  # six built students and alice
    alice_row = next(r for r in rows if r[0] == "alice")
    extend_column = next(i for i, h in enumerate(rows[0]) if h.startswith("Extend /"))
    assert alice_row[extend_column] == "2"

    answer = Submission.objects.get(pk=class_with_answers.pk)
    assert answer.outcome == Submission.Outcome.PARTIAL
    assert Review.objects.get().comment == "Now say why attention fixes it."
    netloc = urlparse(base).netloc
    assert [u for u in seen if urlparse(u).scheme in ("http", "https")
            and urlparse(u).netloc != netloc] == []
