"""The matrix grid in a real browser: typing in cells fills the answer, arrows move between
cells, pasting a whole matrix fills the grid, and the preview reads it."""

import pytest
from playwright.sync_api import Page, expect

from courses.models import Part
from grading.models import Submission
from tests.browser.conftest import sign_in

pytestmark = pytest.mark.services


def test_cells_keyboard_and_paste(page: Page, live_server, alice, course):
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    Part.objects.filter(pk=part.pk).update(
        spec={"type": "matrix", "reference": [[1, 2], [3, 4]], "points": 1},
        answer_type="matrix")
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/")
    box = page.locator(f"#part-{part.pk}")
    grid = box.locator("[data-matrix-cells]")
    expect(grid).to_be_visible()
    first = grid.get_by_label("row 1, column 1")
    first.fill("1")
    first.press("ArrowRight")
    expect(grid.get_by_label("row 1, column 2")).to_be_focused()
    page.keyboard.type("2")
    page.keyboard.press("ArrowDown")
    expect(grid.get_by_label("row 2, column 2")).to_be_focused()
    expect(box.locator(".answer-input")).to_have_value("[[1, 2], [, ]]")

    grid.get_by_label("row 2, column 1").focus()
    page.evaluate("""() => {
        const cell = document.querySelector('[data-matrix-cells] [data-row="2"][data-col="1"]');
        const data = new DataTransfer();
        data.setData('text/plain', '1 2\\n3 4');
        cell.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true,
                                                        cancelable: true}));
    }""")
    expect(box.locator(".answer-input")).to_have_value("[[1, 2], [3, 4]]")
    expect(box.locator(".preview")).to_contain_text("Read as")
    box.get_by_role("button", name="Submit answer").click()
    expect(page.locator(f"#part-{part.pk} .verdict")).to_contain_text("Correct")
    assert Submission.objects.get(part=part).outcome == "correct"
