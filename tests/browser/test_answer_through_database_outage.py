"""An answer sent while the database is away, in a real browser (PostgreSQL behind a TCP proxy
the test cuts): the page says plainly that it was NOT saved, keeps the typed answer and
sends it again by itself once the service answers; without JavaScript the refusal page holds
the form with the typed answer, and sending it again stores it. Stored exactly once."""

import pytest
from django.db import connection
from playwright.sync_api import Browser, Page, expect

import ops.database_outage
from courses.models import Part
from grading.models import Submission
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quick_retry(monkeypatch) -> None:
    """Retry-After 1 s instead of 10, so that the page resends within the test's deadlines."""
    monkeypatch.setattr(ops.database_outage, "RETRY_AFTER_SECONDS", 1)


def _bound() -> Part:
    return Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")


def _stored(student, text: str) -> int:
    connection.close()  # this thread's connection was cut with the others
    return Submission.objects.filter(student=student, raw_answer=text).count()


def test_the_page_keeps_the_answer_and_sends_it_again_when_the_service_is_back(
        proxied_database, quick_retry, page: Page, live_server, alice, course) -> None:
    part = _bound()
    csp_errors: list[str] = []
    page.on("console", lambda m: csp_errors.append(m.text)
            if "Content Security Policy" in m.text else None)
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/")
    box = page.locator(f"#part-{part.pk}")
    answer_url = f"/parts/{part.pk}/answer/"

    proxied_database.cut()
    box.get_by_label("Your answer").fill("0.0015")
    with page.expect_response(lambda r: r.url.endswith(answer_url)) as refused:
        box.get_by_role("button", name="Submit answer").click()
    assert refused.value.status == 503
    expect(box.locator(".not-saved")).to_contain_text("NOT saved")
    expect(box.get_by_label("Your answer")).to_have_value("0.0015")
    # Still away: the page tries again by itself, and keeps the answer.
    with page.expect_response(lambda r: r.url.endswith(answer_url), timeout=10_000) as again:
        pass
    assert again.value.status == 503
    expect(box.get_by_label("Your answer")).to_have_value("0.0015")

    proxied_database.restore()
    expect(box.locator(".verdict")).to_be_visible(timeout=15_000)
    expect(box.locator(".not-saved")).to_have_count(0)
    expect(box.locator(".attempts")).to_contain_text("Attempts used: 1 of 5")
    assert _stored(alice, "0.0015") == 1
    assert csp_errors == []


def test_without_javascript_the_refusal_page_holds_the_typed_answer_to_send_again(
        proxied_database, quick_retry, browser: Browser, live_server, alice, course) -> None:
    part = _bound()
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        sign_in(page, live_server, "alice")
        page.goto(f"{live_server.url}/courses/{course.slug}/")
        box = page.locator(f"#part-{part.pk}")
        proxied_database.cut()
        box.get_by_label("Your answer").fill("0.0016")
        box.get_by_role("button", name="Submit answer").click()
        expect(page.get_by_role("heading", name="Your answer was not saved")).to_be_visible()
        kept = page.get_by_label("Your answer, as you typed it")
        expect(kept).to_have_value("0.0016")

        proxied_database.restore()
        page.get_by_role("button", name="Send again").click()
        page.wait_for_url(f"**/courses/{course.slug}/**#part-{part.pk}")
        expect(box.locator(".verdict")).to_be_visible()
        assert _stored(alice, "0.0016") == 1
    finally:
        context.close()
