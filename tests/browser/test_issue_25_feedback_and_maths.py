"""Issue 25 in a real browser at 1280 px and 390 px: a near miss answered in place is called
close with the precision asked, and the box showing the answer does not say "Type an answer"
(item 5); the lab page typesets its labels and help, the author preview its key (item 12);
axe-core finds no violation on those pages."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import pytest
from playwright.sync_api import expect

from courses.models import Exercise, Part
from grading.variant_assignment import variant_for
from tests.browser.conftest import sign_in
from tests.browser.test_issue_25_pages import WIDTHS, _axe_violations

pytestmark = pytest.mark.services


def _context(browser, width):
    return browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_near_miss_answered_in_place_is_called_close(browser, live_server, alice, course,
                                                       width):
    part = Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound",
                                                       key="bound")
    p = variant_for(student=alice, course=course, exercise=part.exercise).params
    near = f"{float(p['sigma']) ** int(p['steps']) * 0.93:.4g}"
    context = _context(browser, width)
    page = context.new_page()
    try:
        sign_in(page, live_server, "alice")
        page.goto(f"{live_server.url}/courses/{course.slug}/")
        box = page.locator(f"#part-{part.pk}")
        box.get_by_label("Your answer").fill(near)
        box.get_by_role("button", name="Submit answer").click()
        verdict = page.locator(f"#part-{part.pk}-verdict")
        expect(verdict).to_contain_text("Close, but not within the precision asked")
        expect(verdict).to_contain_text("within 2% or to 2 significant figures")
        fresh = page.locator(f"#part-{part.pk}")
        expect(fresh.get_by_label("Your answer")).to_have_value(near)
        assert "Type an answer" not in fresh.locator(".preview").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert _axe_violations(page) == []
    finally:
        context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_lab_page_and_the_author_preview_typeset_their_maths(browser, live_server, alice,
                                                                 irene, course, width):
    context = _context(browser, width)
    page = context.new_page()
    try:
        sign_in(page, live_server, "alice")
        page.goto(f"{live_server.url}/courses/{course.slug}/labs/vanishing-gradient/")
        label = page.locator('label[for="id_sigmas"] math')
        expect(label).to_be_visible()
        assert page.locator("#id_sigmas_helptext math").count() == 1  # W_hh
        assert page.locator("main math").count() >= 10  # the description, labels and help
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert _axe_violations(page) == []
        context.clear_cookies()
        sign_in(page, live_server, "irene")
        exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
        page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/exercises/"
                  f"{exercise.pk}/preview/?variant=1")
        expect(page.locator(".key-maths math")).to_be_visible()
        assert _axe_violations(page) == []
    finally:
        context.close()
