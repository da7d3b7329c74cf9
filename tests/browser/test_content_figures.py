"""Content-driven figures in Chromium at 1280 px and 390 px: Module 6's heat map (Figure 6.2)
is visible at its natural size with its text readable, a heat map wider than the page scrolls
inside its own box with a visible cue and never widens the page, the data table opens, and
axe-core finds no violation on the page."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from typing import cast

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from courses.models import Course, Enrollment, Figure, Module, Section
from courses.services import content_sync
from tests.browser.conftest import sign_in
from tests.browser.test_issue_25_pages import WIDTHS, _axe_violations
from tests.browser.test_issue_25_students import SCROLL_BOXES
from tests.conftest import CONTENT_ROOT
from tests.factories import UserFactory

pytestmark = pytest.mark.services

#: The smallest rendered height (px) of the text in a figure's SVG.
SMALLEST_TEXT = """(selector) => Math.min(...[...document.querySelectorAll(selector + " svg text")]
  .map(t => t.getBoundingClientRect().height).filter(h => h > 0))"""


@pytest.fixture
def erin(db) -> tuple[User, Course]:
    """A student of a Module 6 course whose section 6.2 also has a heat map of 14 columns."""
    content_sync(root=CONTENT_ROOT)
    module = Module.objects.get(slug="module-06")
    Figure.objects.create(
        section=Section.objects.get(module=module, number="6.2"), slug="wide-heatmap",
        number="6.2w", title="A wide heat map", kind="heatmap",
        in_words="Fourteen columns of growing values.",
        data={"values": [[(i + j) / 20 for j in range(14)] for i in range(4)],
              "columns": [f"key {j + 1}" for j in range(14)], "decimals": 2})
    course = Course.objects.create(slug="attention-browser", title="Attention", module=module)
    user = cast(User, UserFactory(username="erin"))
    course.enrollments.create(user=user, role=Enrollment.Role.STUDENT)
    return user, course


@pytest.mark.parametrize("width", WIDTHS)
def test_the_heat_map_is_visible_readable_and_scrolls_only_in_its_box(browser, live_server,
                                                                      erin, width):
    _, course = erin
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    page = context.new_page()
    try:
        sign_in(page, live_server, "erin")
        page.goto(f"{live_server.url}/courses/{course.slug}/")
        page.wait_for_load_state("load")
        heat = page.locator("#figure-worked-scores svg.heatmap[role=img]")
        expect(heat).to_be_visible()
        box = heat.bounding_box()
        assert box is not None and box["width"] <= width
        assert page.evaluate(SMALLEST_TEXT, "#figure-worked-scores") >= 12
        assert page.evaluate(SMALLEST_TEXT, "#figure-wide-heatmap") >= 12

        boxes = page.evaluate(SCROLL_BOXES, "#figure-worked-scores .figure-body > .scroll-x, "
                                            "#figure-wide-heatmap .figure-body > .scroll-x")
        assert len(boxes) == 2
        for found in boxes:
            assert found["marked"] == found["scrolls"] and found["cue"] == found["scrolls"], found
            assert found["focusable"], found
        assert not boxes[0]["scrolls"]  # 6.2's own heat map fits even a phone
        assert boxes[1]["scrolls"] or width > 390  # 14 columns are wider than a phone
        assert page.evaluate("document.documentElement.scrollWidth") <= width

        table = page.locator("#figure-worked-scores details.figure-data")
        table.locator(":scope > summary").click()
        expect(table.get_by_role("rowheader", name="cat")).to_be_visible()
        assert _axe_violations(page) == []
    finally:
        context.close()
