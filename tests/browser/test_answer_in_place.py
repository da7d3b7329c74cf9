"""Answering a part in a real browser: with JavaScript the part is replaced in place (the
rest of the page is not reloaded) and its verdict takes the focus; without JavaScript the
form posts and the browser comes back to the part."""

import pytest
from playwright.sync_api import Browser, Page, expect

from courses.models import Part
from grading.variant_assignment import variant_for
from tests.browser.conftest import sign_in

pytestmark = pytest.mark.services


def _bound() -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound",
                                                       key="bound")


def test_with_javascript_the_part_is_answered_in_place(page: Page, live_server, alice, course):
    part = _bound()
    p = variant_for(student=alice, course=course, exercise=part.exercise).params
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/")
    # A mark on the page: a reload (or a redirect to the page) would lose it.
    page.evaluate("window.__notReloaded = true")
    loads: list[str] = []
    page.on("framenavigated", lambda frame: loads.append(frame.url))
    box = page.locator(f"#part-{part.pk}")
    box.get_by_label("Your answer").fill(f"{p['sigma']}*{p['steps']}")
    with page.expect_response(lambda r: r.url.endswith(f"/parts/{part.pk}/answer/")) as sent:
        box.get_by_role("button", name="Submit answer").click()
    assert sent.value.request.headers.get("x-answer-fragment") == "1"
    expect(box.locator(".verdict")).to_contain_text("This treats the decay as linear")
    expect(box.locator(".attempts")).to_contain_text("Attempts used: 1 of 5 (4 left)")
    expect(box.locator(".verdict")).to_be_focused()
    expect(page.locator("#answer-announcer")).to_contain_text("Incorrect")
    assert page.evaluate("window.__notReloaded") is True
    assert loads == []

    box.get_by_label("Your answer").fill(f"{p['sigma']}^{p['steps']}")
    box.get_by_role("button", name="Submit answer").click()
    expect(box.locator(".done")).to_contain_text("Solved (attempts used:")
    assert page.evaluate("window.__notReloaded") is True


def test_without_javascript_the_form_posts_and_comes_back_to_the_part(
        browser: Browser, live_server, alice, course):
    part = _bound()
    p = variant_for(student=alice, course=course, exercise=part.exercise).params
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        sign_in(page, live_server, "alice")
        page.goto(f"{live_server.url}/courses/{course.slug}/")
        box = page.locator(f"#part-{part.pk}")
        box.get_by_label("Your answer").fill(f"{p['sigma']}*{p['steps']}")
        box.get_by_role("button", name="Submit answer").click()
        page.wait_for_url(f"**/courses/{course.slug}/#part-{part.pk}")
        expect(box.locator(".verdict")).to_contain_text("This treats the decay as linear")
        expect(box.locator(".attempts")).to_contain_text("Attempts used: 1 of 5 (4 left)")
    finally:
        context.close()
