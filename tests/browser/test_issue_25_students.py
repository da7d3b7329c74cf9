"""Issue 25, students' items in a real browser at 1280 px and 390 px: a figure that shows a
prediction's answer is folded with everything that describes it (item 2), section 5.2's
flowchart (item 6), wide formulas and the alignment grid scrolling inside their box with a
visible cue, lab plot labels readable on a phone (item 7); axe-core finds no violation."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import numpy as np
import pytest
from django.utils import timezone

from courses.models import Figure, Lab
from labs.models import LabRun
from labs.services import params_key
from labs.simulations import run_simulation, validate_params
from tests.browser.conftest import sign_in
from tests.browser.test_issue_25_pages import WIDTHS, _axe_violations

pytestmark = pytest.mark.services

#: Every box that scrolls: whether it does, and whether its cue is visible.
SCROLL_BOXES = """(selector) => [...document.querySelectorAll(selector)].map(box => {
  const cue = box.nextElementSibling;
  const shown = !!cue && cue.classList.contains("scroll-cue") && !cue.hidden
    && cue.getBoundingClientRect().height > 0;
  return {scrolls: box.scrollWidth > box.clientWidth + 1, marked: box.classList.contains("scrolls"),
          cue: shown, focusable: box.tabIndex >= 0};
})"""

#: The smallest rendered font size (px) of the text in the page's plot.
SMALLEST_PLOT_TEXT = """() => Math.min(...[...document.querySelectorAll(".plot svg text")]
  .map(t => t.getBoundingClientRect().height).filter(h => h > 0))"""


def _context(browser, width):
    return browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)


@pytest.mark.parametrize("width", WIDTHS)
def test_hidden_figures_fold_what_describes_them_and_5_2_draws_its_chain(
        browser, live_server, alice, course, width):
    context = _context(browser, width)
    page = context.new_page()
    try:
        sign_in(page, live_server, "alice")
        page.goto(f"{live_server.url}/courses/{course.slug}/")
        for figure in Figure.objects.filter(slug__in=["direction-carries-meaning",
                                                      "alignment-grid"]):
            fold = page.locator(f"#reveal-{figure.slug}")
            for text in (figure.instructions, figure.caption, figure.in_words):
                assert not page.get_by_text(text, exact=False).first.is_visible(), text
            fold.locator(":scope > summary").click()
            for text in (figure.instructions, figure.caption):
                assert fold.get_by_text(text, exact=False).first.is_visible(), text
        chain = page.locator("#figure-hidden-state-chain svg[role=img]")
        assert chain.is_visible()
        assert chain.locator("g.step").count() == 3
        assert page.locator("#figure-hidden-state-chain .in-words").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert _axe_violations(page) == []
    finally:
        context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_wide_formulas_and_the_grid_scroll_with_a_visible_cue(browser, live_server, alice,
                                                              course, width):
    context = _context(browser, width)
    page = context.new_page()
    try:
        sign_in(page, live_server, "alice")
        page.goto(f"{live_server.url}/courses/{course.slug}/?row=4")  # the grid opened
        page.wait_for_load_state("load")
        boxes = page.evaluate(SCROLL_BOXES, "#s-5\\.4 .math-display, #figure-alignment-grid .scroll-x")
        assert boxes, "no formula or grid found"
        for box in boxes:
            assert box["marked"] == box["scrolls"] and box["cue"] == box["scrolls"], box
            assert not box["scrolls"] or box["focusable"], box
        if width == 390:
            # the grid (last) and 5.4's wide display formula
            assert boxes[-1]["scrolls"] and any(b["scrolls"] for b in boxes[:-1]), boxes
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert _axe_violations(page) == []
    finally:
        context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_lab_plot_labels_stay_readable(browser, live_server, alice, course, width):
    lab = Lab.objects.get(slug="vanishing-gradient")
    params, errors = validate_params(lab.simulation, {}, lab.param_schema or None)
    assert not errors
    result = run_simulation(lab.simulation, params, rng=np.random.default_rng(1))
    now = timezone.now()
    run = LabRun.objects.create(lab=lab, course=course, requester=alice, params=params,
                                params_key=params_key(params), seed=1,
                                status=LabRun.Status.SUCCEEDED, progress=1.0, result=result,
                                started_at=now, finished_at=now)
    context = _context(browser, width)
    page = context.new_page()
    try:
        sign_in(page, live_server, "alice")
        page.goto(f"{live_server.url}/courses/{course.slug}/runs/{run.uuid}/")
        assert page.locator(".plot svg").is_visible()
        assert page.evaluate(SMALLEST_PLOT_TEXT) >= 9
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert _axe_violations(page) == []
    finally:
        context.close()
