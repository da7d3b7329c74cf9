"""Issue 43 item 2: one part of every answer type answered with the keyboard alone (Tab to the
field, type or choose, Tab to the button, Enter) and its feedback read where a screen reader
finds it; a mistake is tied to its field (aria-describedby, aria-invalid) and says where in
the student's text it is; the live preview is MathML with the reading as plain text and in
words in an aria-live region; the matrix grid's cells are named by row and column; the live
phone is answered with the keyboard too.

The parts are added to one exercise of Module 5 (a test module of every answer type, as the
checkers' registry lists them; grading/checkers/__init__.py CHECKERS)."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from courses.models import Enrollment, Exercise, Part
from grading.checkers import CHECKERS
from grading.models import Submission
from live.access import LiveStaff
from live.sessions import live_session_open
from tests.browser.conftest import sign_in

pytestmark = pytest.mark.services

CHOICES = [{"key": "first", "text": "The first"}, {"key": "second", "text": "The second"},
           {"key": "third", "text": "The third"}]


@dataclass(frozen=True)
class Case:
    """A part of one answer type and the keys that answer it: `keys` is typed into the field
    (for a matrix, one entry per cell, Tab between them; for choices, the option's index)."""

    name: str
    spec: dict
    keys: list[str]
    outcome: str = "correct"


CASES = [
    Case("number", {"type": "numeric", "reference": "0.5", "rtol": 0.01}, ["1/2"]),
    Case("expression", {"type": "symbolic", "reference": "2*x", "variables": ["x"]}, ["x + x"]),
    Case("integer", {"type": "integer", "reference": "40"}, ["40"]),
    Case("complex number", {"type": "numeric", "reference": "1+2*i", "imaginary_unit": "i"},
         ["1 + 2i"]),
    Case("vector", {"type": "vector", "reference": ["1", "2"], "rtol": 0.01}, ["(1, 2)"]),
    Case("matrix grid", {"type": "matrix", "reference": [[1, 2], [3, 4]]}, ["1", "2", "3", "4"]),
    Case("interval", {"type": "set", "reference": "(0, 1]"}, ["(0, 1]"]),
    Case("set", {"type": "set", "reference": "{1, 2}"}, ["{2, 1}"]),
    Case("list", {"type": "list", "reference": ["2", "-3"]}, ["-3, 2"]),
    Case("units", {"type": "quantity", "reference": "3.2", "unit": "m/s"}, ["3200 mm/s"]),
    Case("equation", {"type": "equation", "reference": "y = 2x + 1", "variables": ["x", "y"]},
         ["2y = 4x + 2"]),
    Case("word", {"type": "string", "reference": "softmax"}, ["softmax"]),
    Case("matching", {"type": "matching", "rows": ["a", "b"], "columns": ["x", "y"],
                      "correct": {"a": "x", "b": "y"}}, ["a=x, b=y"]),
    Case("logic", {"type": "logic", "reference": "not q implies not p",
                   "variables": ["p", "q"]}, ["p -> q"]),
    Case("list of items", {"type": "item_list", "items": [
        {"type": "string", "reference": "cat"}, {"type": "string", "reference": "dog"}]},
        ["dog, cat"]),
    Case("one choice", {"type": "choice", "options": CHOICES, "correct": ["second"]}, ["1"]),
    Case("several choices", {"type": "choice", "options": CHOICES, "multiple": True,
                             "correct": ["first", "third"]}, ["0", "2"]),
    Case("free text", {"type": "text"}, ["The state has a fixed size."], outcome="review"),
]


def test_the_cases_cover_every_answer_type_of_the_registry():
    assert {case.spec["type"] for case in CASES} == set(CHECKERS)


@pytest.fixture
def every_type(course) -> dict[str, Part]:
    """One part of each case, added (in the cases' order) to Module 5's Extend exercise; the
    free text case is that exercise's own explanation (reviewed by a teacher, with a rubric)."""
    exercise = Exercise.objects.get(slug="extend-bottleneck")
    exercise.max_attempts = 5
    exercise.save(update_fields=["max_attempts"])
    parts = {}
    for order, case in enumerate(CASES, start=10):
        if case.spec["type"] == "text":
            parts[case.name] = Part.objects.get(exercise=exercise, key="explanation")
            continue
        parts[case.name] = Part.objects.create(
            exercise=exercise, key=f"kb-{order}", answer_type=case.spec["type"],
            prompt=f"Answer the {case.name} part.", spec=case.spec, points=1, order=order)
    return parts


#: Whether the focused element matches a selector, and, when it is not the page itself,
#: whether it shows that it has the focus (an outline or a box shadow) (WCAG 2.4.7).
_FOCUS = """(s) => {
  const e = document.activeElement;
  if (!e || e === document.body) return {at: false, shown: true, what: "body"};
  const style = getComputedStyle(e);
  const shown = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2)
                || style.boxShadow !== "none";
  return {at: e.matches(s), shown: shown, what: e.outerHTML.slice(0, 80)};
}"""

#: Elements that had the focus without showing it, over the test's Tab presses.
UNSEEN_FOCUS: list[str] = []


def _tab_to(page: Page, selector: str, *, limit: int = 400) -> None:
    """Press Tab until the focus is on `selector` (a keyboard user's way there), noting each
    element on the way that had the focus without showing it."""
    for _ in range(limit):
        focus = page.evaluate(_FOCUS, selector)
        if not focus["shown"]:
            UNSEEN_FOCUS.append(focus["what"])
        if focus["at"]:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def _answer(page: Page, part: Part, case: Case) -> None:
    box = f"#part-{part.pk}"
    if case.spec["type"] == "choice":
        _tab_to(page, f"{box} input[name=answer]")
        for index in range(len(case.spec["options"])):
            if case.spec.get("multiple"):
                if str(index) in case.keys:
                    page.keyboard.press("Space")
                page.keyboard.press("Tab")
                continue
            if index == 0:
                page.keyboard.press("Space")
            if index < int(case.keys[0]):
                page.keyboard.press("ArrowDown")
    elif case.spec["type"] == "matrix":
        _tab_to(page, f"{box} .matrix-cell")
        for cell in case.keys:
            page.keyboard.type(cell)
            page.keyboard.press("Tab")
    else:
        _tab_to(page, f"{box} [name=answer]")
        page.keyboard.type(case.keys[0])
    _tab_to(page, f"{box} button[type=submit]:not(.secondary)")
    page.keyboard.press("Enter")


def test_every_answer_type_is_answered_with_the_keyboard_alone(page: Page, live_server, alice,
                                                              course, every_type):
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/#exercise-extend-bottleneck")
    UNSEEN_FOCUS.clear()
    for case in CASES:
        part = every_type[case.name]
        _answer(page, part, case)
        verdict = page.locator(f"#part-{part.pk} .verdict")
        expected = "Correct" if case.outcome == "correct" else "review"
        expect(verdict).to_contain_text(expected)
        # The verdict is a status region: a screen reader announces it where it appears.
        assert verdict.get_attribute("role") == "status", case.name
        outcomes = Submission.objects.filter(part=part).values_list("outcome", flat=True)
        assert list(outcomes) == [case.outcome], case.name
    # Every element the Tab key reached on the way showed its focus.
    assert UNSEEN_FOCUS == []


def test_a_mistake_is_tied_to_its_field_and_says_where_it_is(page: Page, live_server, alice,
                                                              course, every_type):
    part = every_type["expression"]
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/#exercise-extend-bottleneck")
    _tab_to(page, f"#part-{part.pk} [name=answer]")
    page.keyboard.type("2*x + )")
    field = page.locator(f"#part-{part.pk} [name=answer]")
    expect(field).to_have_attribute("aria-invalid", "true")
    preview = page.locator(f"#part-{part.pk}-preview")
    expect(preview).to_contain_text("at character 7")
    assert preview.get_attribute("aria-live") == "polite"
    assert f"part-{part.pk}-preview" in (field.get_attribute("aria-describedby") or "").split()

    _tab_to(page, f"#part-{part.pk} button[type=submit]:not(.secondary)")
    page.keyboard.press("Enter")
    # The answer comes back refused (no attempt used): the verdict says where, and the field,
    # still holding the text, is described by it and marked invalid.
    verdict = page.locator(f"#part-{part.pk}-verdict")
    expect(verdict).to_contain_text("at character 7")
    field = page.locator(f"#part-{part.pk} [name=answer]")
    expect(field).to_have_value("2*x + )")
    described = (field.get_attribute("aria-describedby") or "").split()
    assert f"part-{part.pk}-verdict" in described
    expect(field).to_have_attribute("aria-invalid", "true")


def test_the_preview_is_mathml_and_plain_text_in_a_live_region(page: Page, live_server, alice,
                                                               course, every_type):
    part = every_type["expression"]
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/#exercise-extend-bottleneck")
    _tab_to(page, f"#part-{part.pk} [name=answer]")
    page.keyboard.type("x^2/2")
    preview = page.locator(f"#part-{part.pk}-preview")
    expect(preview.locator("math")).to_be_attached()
    expect(preview).to_contain_text("Read as")
    assert preview.get_attribute("aria-live") == "polite"
    # The reading as plain text beside the MathML, and in words, for a reader that does not
    # speak MathML.
    expect(preview.locator(".preview-canonical")).to_contain_text("x^2/2")
    expect(preview.locator(".preview-words")).to_have_text(
        "In words: the fraction x squared over 2, end fraction.")

    grid = every_type["matrix grid"]
    _tab_to(page, f"#part-{grid.pk} .matrix-cell")
    for cell in ["1", "2", "3", "4"]:
        page.keyboard.type(cell)
        page.keyboard.press("Tab")
    expect(page.locator(f"#part-{grid.pk}-preview .preview-words")).to_contain_text(
        "a matrix of 2 rows: row 1: 1, 2; row 2: 3, 4, end matrix")


def test_the_matrix_grid_names_each_cell_by_row_and_column(page: Page, live_server, alice,
                                                           course, every_type):
    part = every_type["matrix grid"]
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/#exercise-extend-bottleneck")
    grid = page.locator(f"#part-{part.pk} [data-matrix-cells]")
    expect(grid).to_be_visible()
    names = grid.locator("input").evaluate_all("cells => cells.map(c => c.getAttribute('aria-label'))")
    assert names == ["row 1, column 1", "row 1, column 2", "row 2, column 1", "row 2, column 2"]
    assert "2 by 2" in (grid.get_attribute("aria-label") or "")


def test_the_live_phone_is_answered_with_the_keyboard_alone(page: Page, live_server, alice,
                                                            irene, course, every_type):
    part = every_type["number"]
    staff = LiveStaff(course=course, user=irene, role=Enrollment.Role.INSTRUCTOR)
    session = live_session_open(staff=staff, part_id=part.pk, variant="class")
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/live/")
    _tab_to(page, "input[name=code]")
    page.keyboard.type(session.code.lower())
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/live/{session.code}/")
    _tab_to(page, "#live-answer")
    page.keyboard.type("1/2")
    _tab_to(page, ".live-form button[type=submit]")
    page.keyboard.press("Enter")
    expect(page.locator(".live-mine")).to_have_text("1/2")
    assert Submission.objects.get(part=part, student=alice).raw_answer == "1/2"
