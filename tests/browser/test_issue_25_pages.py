"""Issue 25 in a real browser at 1280 px and 390 px: due dates beside the exercise and on the
home page with the reader's local time (item 1), the progress matrix's headers never broken
inside a word and staff home pages without a progress table (item 10), and axe-core (vendored
under tests/browser/vendor/, no CDN) finding no violation on those pages."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from courses.models import Exercise
from grading.deadlines import deadline_policy_set, deadline_set
from tests.browser.conftest import sign_in

pytestmark = pytest.mark.services

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
WIDTHS = [1280, 390]

#: How many words of each matrix header are drawn on more than one line (a word broken).
BROKEN_WORDS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll("table.matrix thead th")) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /\\S+/g; let m;
      while ((m = re.exec(node.textContent)) !== null) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


def _axe_violations(page) -> list[str]:
    # The contexts bypass the CSP only so that axe can be injected; the pages are unchanged.
    page.add_script_tag(content=AXE.read_text())
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))")
    return list(result)


@pytest.fixture
def due_course(course, irene):
    deadline_policy_set(course=course, time_zone="Europe/London", late="refused", late_share=0,
                        late_days=0, tas_grant_extensions=False, by=irene)
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    deadline_set(course=course, exercise_id=exercise.pk,
                 due_at=datetime(2030, 11, 30, 12, 0, tzinfo=ZoneInfo("Europe/London")), by=irene)
    return course


@pytest.mark.parametrize("width", WIDTHS)
def test_due_dates_show_in_the_course_zone_and_the_readers_own(browser, live_server, alice,
                                                               due_course, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True,
                                  timezone_id="America/New_York", locale="en-GB")
    page = context.new_page()
    try:
        sign_in(page, live_server, "alice")
        home_due = page.locator(".due-list")
        assert "Due 30 Nov, 12:00 (Europe/London)" in home_due.inner_text()
        assert "(your time: 30 Nov, 07:00)" in home_due.inner_text()
        assert _axe_violations(page) == []
        page.goto(f"{live_server.url}/courses/{due_course.slug}/")
        due = page.locator("#exercise-apply-1-gradient-bound .due")
        assert due.is_visible()
        assert "Due 30 Nov, 12:00 (Europe/London) (your time: 30 Nov, 07:00)" in due.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_matrix_headers_wrap_between_words_and_staff_home_has_no_progress(
        browser, live_server, course, irene, alice, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    page = context.new_page()
    try:
        sign_in(page, live_server, "irene")
        assert page.get_by_text("Your progress by section").count() == 0
        assert _axe_violations(page) == []
        page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/progress/")
        assert page.evaluate(BROKEN_WORDS) == []
    finally:
        context.close()
