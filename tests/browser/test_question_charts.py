"""Issue 25 item 10 in a real browser at 1280 px and 390 px: the question statistics page
names parts by their label and draws a score and an attempts chart per question, each chart
inside the viewport (no sideways scroll), and axe-core finds no violation on it."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import pytest

from tests.browser.conftest import sign_in
from tests.browser.test_issue_25_pages import WIDTHS, _axe_violations

pytestmark = pytest.mark.services

#: Charts whose right edge lies beyond the viewport.
CUT_CHARTS = """() => [...document.querySelectorAll("svg.chart")]
  .filter(svg => svg.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map(svg => svg.getAttribute("aria-label"))"""


@pytest.mark.parametrize("width", WIDTHS)
def test_each_question_has_its_charts_within_the_page_and_no_axe_violation(
        browser, live_server, course, irene, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    page = context.new_page()
    try:
        sign_in(page, live_server, "irene")
        page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/statistics/")
        rows = page.locator("table.stats tbody tr").count()
        assert rows > 0
        assert page.locator('svg.chart[aria-label^="Best scores: "]').count() == rows
        assert page.locator('svg.chart[aria-label^="Attempts used: "]').count() == rows
        assert page.get_by_role("heading", name="Apply 2 / Sequential steps for the RNN").count() == 1
        assert page.evaluate(CUT_CHARTS) == []
        assert _axe_violations(page) == []
    finally:
        context.close()
