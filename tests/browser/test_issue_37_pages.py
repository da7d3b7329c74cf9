"""Issue 37's smaller page items, as a student sees them in Chromium: units set upright
(a quantity's preview, `$\\mathrm{s}$`), one labelled input for a matrix, the labs' own
labels (no raw parameter names) and French words quoted so that "L'" reads, "Predict first"
said once, and a prediction's finished lab shown in place without reloading the page."""

import re

import pytest
from playwright.sync_api import Page, expect

from courses.models import Lab, Part
from labs.models import LabRun
from labs.predictions import lab_run_execute_and_grade
from tests.browser.conftest import sign_in
from tests.browser.test_policy_walk import _stored_run

pytestmark = pytest.mark.services

#: Whether each <mi> of the element's maths is drawn upright, by its text.
UPRIGHT = """(root) => Object.fromEntries([...root.querySelectorAll("mi")].map(
  mi => [mi.textContent, getComputedStyle(mi).textTransform !== "math-auto"
                         && getComputedStyle(mi).fontStyle !== "italic"]))"""


def _part(slug: str, key: str) -> Part:
    return Part.objects.get(exercise__slug=slug, key=key)


def test_units_are_upright_in_a_quantitys_preview(page: Page, live_server, alice, course):
    part = _part("apply-1-gradient-bound", "bound")
    Part.objects.filter(pk=part.pk).update(
        spec={"type": "quantity", "reference": "45", "unit": "m", "points": 1},
        answer_type="quantity")
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/")
    box = page.locator(f"#part-{part.pk}")
    box.get_by_label("Your answer").fill("45 m/s")
    expect(box.locator(".preview math")).to_be_visible()
    assert box.locator(".preview math").evaluate(UPRIGHT) == {"m": True, "s": True}


def test_a_matrix_shows_one_labelled_input(page: Page, live_server, alice, course):
    part = _part("apply-1-gradient-bound", "bound")
    Part.objects.filter(pk=part.pk).update(
        spec={"type": "matrix", "reference": [[1, 2], [3, 4]], "points": 1},
        answer_type="matrix")
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/")
    box = page.locator(f"#part-{part.pk}")
    expect(box.locator("[data-matrix-cells]")).to_be_visible()
    expect(box.locator(".answer-input")).to_be_hidden()  # the grid alone
    box.locator("label", has_text="Your answer").click()
    expect(box.get_by_label("row 1, column 1")).to_be_focused()  # the label is the grid's
    page.keyboard.type("1")
    expect(box.locator(".answer-input")).to_have_value("[[1, ], [, ]]")


def test_labs_show_their_authors_labels_and_quote_french_words(page: Page, live_server,
                                                                 alice, course):
    sign_in(page, live_server, "alice")
    for slug, names in (("vanishing-gradient", ("sigmas", "input_scale")),
                        ("word-vectors", ("word_a", "word_b"))):
        page.goto(f"{live_server.url}/courses/{course.slug}/labs/{slug}/")
        form = page.locator("form.params-form")
        expect(form.locator("label").first).to_be_visible()
        labels = " ".join(form.locator("label").all_inner_texts())
        assert not any(name in labels for name in names), labels
    expect(form.get_by_label("First word")).to_be_visible()

    run = _stored_run(Lab.objects.get(slug="attention"), course, alice)
    page.goto(f"{live_server.url}/courses/{course.slug}/runs/{run.uuid}/")
    params = page.locator(".params-list").inner_text()
    assert "sharpness" not in params and "Score scale (length of v) = " in params, params
    rows = page.locator(".key-results dt").all_inner_texts()
    assert "Writing \u201cL'\u201d" in rows, rows
    assert not any("'L''" in row for row in rows)


def test_predict_first_is_said_once_when_the_run_is_refused(page: Page, live_server, alice,
                                                            course):
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/labs/word-vectors/")
    page.get_by_role("button", name="Run the lab").click()
    expect(page.get_by_role("alert")).to_contain_text("Predict first")
    assert page.get_by_text(re.compile("Predict first")).count() == 1


def test_a_predictions_finished_lab_is_shown_in_place_keeping_what_was_typed(
        page: Page, live_server, alice, course):
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/")
    page.evaluate("window.__samePage = true")
    draft = page.locator(f"#part-{_part('apply-1-gradient-bound', 'bound').pk}")
    draft.get_by_label("Your answer").fill("0.85^40")  # typed, not sent yet

    shape = page.locator(f"#part-{_part('predict-alignment-shape', 'shape').pk}")
    shape.get_by_label("Mostly diagonal, with a local crossing").check()
    shape.get_by_role("button", name="Lock in my prediction").click()
    expect(shape.locator("[data-poll]")).to_have_count(1)
    lab_run_execute_and_grade(run_id=LabRun.objects.get(submission__isnull=False).pk)

    expect(shape.locator(".measured")).to_contain_text("Mostly diagonal", timeout=20_000)
    expect(shape.locator(".verdict")).to_contain_text("Correct")
    assert page.evaluate("window.__samePage === true"), "the page was reloaded"
    expect(draft.get_by_label("Your answer")).to_have_value("0.85^40")
