"""Layout and navigation in a real browser (Debian's Chromium via Playwright) at 1280 px:
an instructor reaches the dashboard by clicking; the home page's counts stay on one line; the
progress matrix fits without scrolling sideways, with a sticky name column; inline maths is
as large as the text around it; without JavaScript the preview page shows the question, and
with it a parse error is shown once. Layout facts are measured in the page, never pixels."""

import re

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from courses.models import Enrollment, Part
from grading.services import submission_create
from tests.browser.conftest import sign_in
from tests.factories import EnrollmentFactory, UserFactory
from tests.instructor.conftest import build_class

pytestmark = pytest.mark.services

WIDE: ViewportSize = {"width": 1280, "height": 800}


@pytest.fixture
def class_of_30(course, irene, alice):
    build_class(course, 30)
    return course


def test_the_instructor_signs_in_and_reaches_the_dashboard_by_clicking(
    page: Page, live_server, requests_seen, screenshot, course, irene, alice
):
    page.set_viewport_size(WIDE)
    page.goto(f"{live_server.url}/")  # the site's address; everything after is clicks
    page.get_by_label("Username").fill("irene")
    page.get_by_label("Password").fill("correct horse battery staple")
    page.get_by_role("button", name="Sign in").click()
    card = page.locator(f"#course-{course.slug}").locator("..")
    expect(card).to_contain_text("You are: Instructor")
    screenshot("home")
    card.get_by_role("link", name="Dashboard").click()
    expect(page.get_by_role("heading", name="Class overview")).to_be_visible()
    assert page.url == f"{live_server.url}/courses/{course.slug}/dashboard/"

    page.get_by_role("link", name="Grader").click()  # home, then the course page's link
    page.get_by_role("link", name=course.title).click()
    page.get_by_role("link", name="Dashboard").click()
    expect(page.get_by_role("heading", name="Class overview")).to_be_visible()
    page.get_by_role("link", name="Progress").click()
    expect(page.locator("table.matrix")).to_contain_text("alice")


def test_a_ta_finds_the_dashboard_and_a_student_does_not(
    page: Page, live_server, requests_seen, course, alice
):
    tara = UserFactory(username="tara")
    EnrollmentFactory(user=tara, course=course, role=Enrollment.Role.TA)
    sign_in(page, live_server, "alice")
    expect(page.get_by_text("You are: Student")).to_be_visible()
    expect(page.get_by_role("link", name="Dashboard")).to_have_count(0)
    page.get_by_role("button", name="Sign out").click()
    sign_in(page, live_server, "tara")
    page.get_by_role("link", name="Dashboard").click()
    expect(page.get_by_role("heading", name="Class overview")).to_be_visible()


def test_home_page_counts_stay_on_one_line_at_1280_px(
    page: Page, live_server, requests_seen, screenshot, course, alice
):
    part = Part.objects.select_related("exercise").get(exercise__slug="apply-2-sequential-steps",
                                                       key="attention_steps")
    submission_create(student=alice, course=course, part=part, raw_answer="1")
    page.set_viewport_size(WIDE)
    sign_in(page, live_server, "alice")
    counts = page.locator(".progress-table .count")
    expect(counts.first).to_be_visible()
    lines = counts.evaluate_all("els => els.map(e => e.getClientRects().length)")
    assert lines and all(n == 1 for n in lines), lines
    screenshot("home-1280")


def _no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_progress_matrix_fits_at_1280_px_with_a_sticky_name_column(
    page: Page, live_server, requests_seen, screenshot, class_of_30
):
    page.set_viewport_size(WIDE)
    sign_in(page, live_server, "irene")
    page.get_by_role("link", name="Dashboard").click()
    page.get_by_role("link", name="Progress").click()
    wrap = page.locator(".table-wrap").first
    expect(wrap.locator("table.matrix")).to_be_visible()
    fits = wrap.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert fits[0] <= fits[1], f"the matrix scrolls sideways: {fits}"
    _no_sideways_scroll(page)
    name = page.locator("table.matrix tbody th[scope=row]").first
    assert name.evaluate("el => getComputedStyle(el).position") == "sticky"
    screenshot("matrix-1280")


#: For each letter or digit of inline maths drawn at the formula's own size (not a sub- or
#: superscript): the height of its box against the ink height of the same character in the
#: surrounding paragraph's font (measured on a canvas in the page).
_GLYPH_HEIGHTS = """els => els.slice(0, 40).flatMap(m => {
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = getComputedStyle(m.parentElement).font;
  const size = getComputedStyle(m).fontSize;
  return Array.from(m.querySelectorAll('mi, mn'))
    .filter(n => /^[A-Za-z0-9]$/.test(n.textContent) && getComputedStyle(n).fontSize === size)
    .map(n => { const t = ctx.measureText(n.textContent);
                return [n.textContent, n.getBoundingClientRect().height,
                        t.actualBoundingBoxAscent + t.actualBoundingBoxDescent]; });
})"""


def test_inline_maths_is_as_large_as_the_text_around_it(
    page: Page, live_server, requests_seen, screenshot, course, alice
):
    page.set_viewport_size(WIDE)
    sign_in(page, live_server, "alice")
    page.get_by_role("link", name=course.title).click()
    glyphs = page.locator("p > math").evaluate_all(_GLYPH_HEIGHTS)
    capitals = [(c, box, ink) for c, box, ink in glyphs if c.isupper() and ink]
    assert capitals, "the module page has inline maths with capital letters"
    ratios = sorted(box / ink for _, box, ink in capitals)
    assert ratios[len(ratios) // 2] >= 0.92, capitals  # the median capital: as tall as text
    page.locator("#exercise-apply-1-gradient-bound").screenshot(
        path=str(screenshot("module-1280").with_name("inline-maths.png")))


def test_without_javascript_the_preview_page_shows_the_question(
    browser: Browser, live_server, course, alice
):
    context = browser.new_context(java_script_enabled=False, viewport=WIDE)
    page = context.new_page()
    sign_in(page, live_server, "alice")
    page.get_by_role("link", name=course.title).click()
    box = page.locator("#exercise-apply-1-gradient-bound")
    box.get_by_label("Your answer").fill("0.85^40")
    box.get_by_role("button", name="Preview").click()
    expect(page.get_by_role("heading", name="How your answer is read")).to_be_visible()
    question = page.locator("section.question")
    expect(question).to_contain_text("A gradient passes back through")
    expect(question).to_contain_text("Largest possible size of the gradient")
    expect(question.locator(".your-numbers")).to_be_visible()
    expect(page.locator(".preview-page math")).to_be_visible()
    _no_sideways_scroll(page)
    context.close()


def test_a_parse_error_is_shown_once_after_submitting(
    page: Page, live_server, requests_seen, course, alice
):
    sign_in(page, live_server, "alice")
    page.get_by_role("link", name=course.title).click()
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    box = page.locator(f"#part-{part.pk}")
    box.get_by_label("Your answer").fill("0.85^(40")
    expect(box.locator(".preview")).to_contain_text("missing ')'")  # while typing: a help
    box.get_by_role("button", name="Submit answer").click()
    expect(box.locator(".verdict")).to_contain_text("missing ')'")
    page.wait_for_load_state("networkidle")  # any preview the page would start has run
    text = box.inner_text()
    assert len(re.findall(r"missing '\)'", text)) == 1, text
    assert "(no attempt used) (no attempt used)" not in text
