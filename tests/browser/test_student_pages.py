"""A student in a real browser: sign in, read the module, answer, predict, run labs.

Students get their own variant of each exercise, so the expected answers are computed from
the student's variant parameters (for the module's own variant: 34 and 0.85^40).
"""

import re
from fractions import Fraction

import pytest
from playwright.sync_api import Page, expect

from courses.models import Exercise, Figure, Lab, Part
from grading.models import Submission
from grading.variant_assignment import variant_for
from labs.models import LabRun
from labs.simulations.word_vectors import angle_degrees
from tests.browser.conftest import sign_in

pytestmark = pytest.mark.services

LAB_TIMEOUT = 90_000  # ms: a worker starts cold, then the simulation and the plot


def _module_url(live_server, course) -> str:
    return f"{live_server.url}/courses/{course.slug}/"


def _part(slug: str, key: str) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug=slug, key=key)


def _params(student, course, slug: str) -> dict:
    return variant_for(student=student, course=course,
                       exercise=Exercise.objects.get(slug=slug)).params


def _number(value: float) -> str:
    return f"{value:g}"


def test_student_answers_apply_1_linear_decay_then_correct_with_preview(
    page: Page, live_server, requests_seen, screenshot, alice, course
):
    part = _part("apply-1-gradient-bound", "bound")
    params = _params(alice, course, "apply-1-gradient-bound")
    sigma, steps = params["sigma"], params["steps"]
    linear = _number(float(Fraction(str(sigma)) * steps))  # 34 in the module's own variant
    correct = f"{sigma}^{steps}"  # 0.85^40 in the module's own variant

    sign_in(page, live_server, "alice")
    page.goto(_module_url(live_server, course))
    box = page.locator(f"#part-{part.pk}")
    expect(page.locator("#exercise-apply-1-gradient-bound")).to_contain_text(
        f"A gradient passes back through {steps} RNN steps")
    answer = box.get_by_label("Your answer")

    answer.fill(f"{sigma}^({steps}")  # an unclosed bracket: not understood
    expect(box.locator(".preview")).to_contain_text("missing ')'")
    box.get_by_role("button", name="Submit answer").click()
    expect(box.locator(".verdict")).to_contain_text("Not understood (no attempt used)")
    expect(box.locator(".verdict")).to_contain_text("missing ')'")
    expect(box.locator(".attempts")).to_contain_text("Attempts used: 0 of 5")
    expect(box.get_by_label("Your answer")).to_have_value(f"{sigma}^({steps}")  # nothing lost
    screenshot("invalid")

    box.get_by_label("Your answer").fill(linear)
    box.get_by_role("button", name="Submit answer").click()
    expect(box.locator(".verdict")).to_contain_text("Incorrect")
    expect(box.locator(".verdict")).to_contain_text("This treats the decay as linear")
    expect(box.locator(".attempts")).to_contain_text("Attempts used: 1 of 5 (4 left)")

    box.get_by_label("Your answer").fill(correct)
    preview = box.locator(".preview")
    expect(preview).to_contain_text("Read as")
    expect(preview).to_contain_text(f"{correct} ≈")
    expect(preview.locator("math")).to_be_visible()  # rendered maths, before submitting
    screenshot("preview")
    box.get_by_role("button", name="Submit answer").click()
    expect(box.locator(".verdict")).to_contain_text("Correct")
    expect(box.locator(".attempts.done")).to_have_text("Solved (attempts used: 2 of 5).")
    box.locator(".history summary").click()
    expect(box.locator(".history li")).to_have_count(3)
    screenshot("correct")

    outcomes = list(Submission.objects.filter(student=alice, part=part)
                    .values_list("outcome", "counts_as_attempt"))
    assert outcomes == [("invalid", False), ("incorrect", True), ("correct", True)]


def test_student_answers_apply_3(page: Page, live_server, requests_seen, screenshot, alice,
                                 course):
    part = _part("apply-3-context-value", "context")
    p = _params(alice, course, "apply-3-context-value")
    typed = " + ".join(f"{p[f'w{i}']}*({p[f'h{i}']})" for i in range(1, 5))

    sign_in(page, live_server, "alice")
    page.goto(_module_url(live_server, course))
    box = page.locator(f"#part-{part.pk}")
    box.get_by_label("Your answer").fill(typed)
    expect(box.locator(".preview")).to_contain_text("Read as")
    box.get_by_role("button", name="Submit answer").click()
    expect(box.locator(".verdict")).to_contain_text("Correct")
    screenshot("answered")


def test_prediction_is_locked_then_compared_with_what_the_lab_measured(
    page: Page, live_server, requests_seen, screenshot, celery_worker, alice, course
):
    part = _part("predict-analogy", "endpoint")
    sign_in(page, live_server, "alice")
    page.goto(_module_url(live_server, course))
    predict = page.locator("#exercise-predict-analogy")
    expect(predict.get_by_role("heading")).to_contain_text("Predict, then try")
    expect(page.locator("#reveal-direction-carries-meaning")).not_to_have_attribute("open", "")  # folded

    box = page.locator(f"#part-{part.pk}")
    box.get_by_label("Near queen").check()
    screenshot("before")
    box.get_by_role("button", name="Lock in my prediction").click()

    expect(box.locator(".predicted")).to_have_text("Near queen")
    expect(box.get_by_role("button", name="Lock in my prediction")).to_have_count(0)  # locked
    expect(box.locator(".measured")).to_have_text("Near queen", timeout=LAB_TIMEOUT)
    expect(box.locator(".verdict")).to_contain_text("Correct")
    expect(box.locator(".verdict")).to_contain_text("Your prediction matches the lab")
    expect(page.locator("#reveal-direction-carries-meaning")).to_have_count(0)  # unfolded for good
    screenshot("compared")

    box.get_by_role("link", name=re.compile("See the lab run")).click()
    expect(page.locator(".plot svg")).to_be_visible()
    submission = Submission.objects.get(student=alice, part=part)
    assert submission.outcome == "correct" and submission.counts_as_attempt
    assert LabRun.objects.get(submission=submission).status == LabRun.Status.SUCCEEDED


def test_vanishing_gradient_lab_runs_on_a_worker_to_its_plot(
    page: Page, live_server, requests_seen, screenshot, celery_worker, alice, course
):
    sign_in(page, live_server, "alice")
    page.goto(_module_url(live_server, course))
    page.locator("#lab-vanishing-gradient").get_by_role("link", name="Open the lab").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Run this section")
    expect(page.get_by_label("Hidden units")).to_have_value("32")
    expect(page.get_by_label("Steps")).to_have_value("60")
    page.get_by_label("Steps").fill("600")  # out of bounds: refused with a clear message
    page.get_by_role("button", name="Run the lab").click()
    expect(page.get_by_role("alert")).to_contain_text("Steps must be between 1 and 500")
    assert LabRun.objects.count() == 0

    page.get_by_label("Steps").fill("60")
    page.get_by_role("button", name="Run the lab").click()
    expect(page.locator("#run-status")).to_be_visible()
    screenshot("queued")
    expect(page.locator(".plot svg")).to_be_visible(timeout=LAB_TIMEOUT)
    expect(page.locator(".status-label")).to_have_text("Succeeded")
    expect(page.locator(".key-results")).to_contain_text("Gradient size 40 steps back")
    screenshot("plot")

    page.get_by_role("link", name="Back to the lab").click()
    expect(page.locator(".runs > li")).to_have_count(1)


def test_keyboard_only_submission(page: Page, live_server, requests_seen, alice, course):
    part = _part("apply-2-sequential-steps", "attention_steps")
    sign_in(page, live_server, "alice")
    page.goto(_module_url(live_server, course))
    target = f"part-{part.pk}-answer"
    for _ in range(600):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.id") == target:
            break
    else:
        pytest.fail("the answer box cannot be reached with Tab")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    expect(page.locator(f"#part-{part.pk} .verdict")).to_contain_text("Correct")


@pytest.mark.parametrize("path", ["", "?a=king&b=queen&row=4", "labs/vanishing-gradient/"])
def test_pages_fit_a_375px_phone_without_horizontal_scroll(browser, live_server, alice, course,
                                                           path):
    context = browser.new_context(viewport={"width": 375, "height": 812})
    page = context.new_page()
    try:
        sign_in(page, live_server, "alice")
        page.goto(f"{_module_url(live_server, course)}{path}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the page is {width}px wide"
        label = re.sub(r"[^a-z0-9]+", "-", path).strip("-") or "module"
        page.screenshot(path=str(_artifact(f"phone-375-{label}")), full_page=True)
    finally:
        context.close()


def _artifact(label: str):
    from tests.browser.conftest import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{label}.png"


def test_every_prompt_figure_prediction_lab_and_exercise_is_reachable_from_the_module_page(
    page: Page, live_server, requests_seen, screenshot, alice, course
):
    sign_in(page, live_server, "alice")
    page.goto(_module_url(live_server, course))
    for exercise in Exercise.objects.active().filter(module=course.module):
        block = page.locator(f"#exercise-{exercise.slug}")
        expect(block).to_be_visible()
        prompt = variant_for(student=alice, course=course, exercise=exercise).prompt(
            exercise.prompt)
        expect(block.locator(".prompt")).to_contain_text(prompt.split("$")[0].strip()[:40])
        for part in exercise.parts.active():
            expect(page.locator(f"#part-{part.pk} form")).to_have_count(1)
    for figure in Figure.objects.active().filter(section__module=course.module):
        expect(page.locator(f"#figure-{figure.slug}")).to_contain_text(figure.in_words)
    for lab in Lab.objects.active().filter(module=course.module):
        expect(page.locator(f"#lab-{lab.slug}").get_by_role("link", name="Open the lab")) \
            .to_have_attribute("href", f"/courses/{course.slug}/labs/{lab.slug}/")
    expect(page.locator("h3", has_text="Predict, then try")).to_have_count(2)
    assert _unlabelled_inputs(page) == []

    # Figure 5.1: choose two words; the angle is drawn and stated (no JavaScript needed).
    figure = page.locator("#figure-direction-carries-meaning")
    page.locator("#reveal-direction-carries-meaning > summary").click()
    figure.get_by_label("First word").select_option("king")
    figure.get_by_label("Second word").select_option("queen")
    figure.get_by_role("button", name="Show the angle").click()
    expect(page.locator("#figure-direction-carries-meaning .figure-readout")).to_contain_text(
        f"{angle_degrees('king', 'queen'):.0f}°")

    # Figure 5.6: choosing a row lists its weights.
    grid = page.locator("#figure-alignment-grid")
    page.locator("#reveal-alignment-grid > summary").click()
    grid.get_by_role("link", name="zone", exact=True).click()
    expect(grid.locator(".row-panel:not([hidden])")).to_contain_text("Area: 0.8")
    screenshot("module")

    for lab in Lab.objects.active().filter(module=course.module):
        page.goto(f"{live_server.url}/courses/{course.slug}/labs/{lab.slug}/")
        expect(page.get_by_role("heading", level=1)).to_contain_text(lab.title)
        assert _unlabelled_inputs(page) == []


def _unlabelled_inputs(page: Page) -> list[str]:
    """Visible form controls without a label (a <label for>, a wrapping label or aria-label)."""
    return page.evaluate("""() => [...document.querySelectorAll('input, select, textarea')]
        .filter(el => el.type !== 'hidden' && el.type !== 'submit')
        .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label'))
        .map(el => el.outerHTML.slice(0, 80))""")


def test_every_exercise_and_lab_works_end_to_end(
    page: Page, live_server, requests_seen, screenshot, celery_worker, alice, course
):
    sign_in(page, live_server, "alice")
    module = _module_url(live_server, course)
    page.goto(module)

    def answer_text(slug: str, key: str, text: str, expected: str) -> None:
        part = _part(slug, key)
        box = page.locator(f"#part-{part.pk}")
        box.get_by_label("Your answer").fill(text)
        box.get_by_role("button", name=re.compile("Submit answer|Lock in")).click()
        expect(page.locator(f"#part-{part.pk} .verdict")).to_contain_text(expected)

    check = _part("check-two-problems", "explanation")
    answer_text("check-two-problems", "explanation", check.spec["reference"], "Correct")
    n = _params(alice, course, "apply-2-sequential-steps")["N"]
    answer_text("apply-2-sequential-steps", "rnn_steps", str(n), "Correct")
    answer_text("apply-2-sequential-steps", "attention_steps", "1", "Correct")
    extend = _part("extend-bottleneck", "explanation")
    answer_text("extend-bottleneck", "explanation", extend.spec["reference"], "Awaiting review")
    answer_text("predict-analogy", "meaning",
                "The man to woman step would not be a consistent direction.", "Awaiting review")

    shape = _part("predict-alignment-shape", "shape")
    box = page.locator(f"#part-{shape.pk}")
    box.get_by_label("Mostly diagonal, with a local crossing").check()
    box.get_by_role("button", name="Lock in my prediction").click()
    expect(box.locator(".measured")).to_contain_text("Mostly diagonal, with a local crossing",
                                                     timeout=LAB_TIMEOUT)
    expect(box.locator(".verdict")).to_contain_text("Correct")

    # The word-vectors lab shows the analogy's answer: it opens once that prediction is locked.
    analogy = _part("predict-analogy", "endpoint")
    box = page.locator(f"#part-{analogy.pk}")
    box.get_by_label("Near queen").check()
    box.get_by_role("button", name="Lock in my prediction").click()
    expect(box.locator(".measured")).to_have_text("Near queen", timeout=LAB_TIMEOUT)

    for slug in ("word-vectors", "rnn", "attention"):
        page.goto(f"{live_server.url}/courses/{course.slug}/labs/{slug}/")
        page.get_by_role("button", name="Run the lab").click()
        expect(page.locator(".plot svg")).to_be_visible(timeout=LAB_TIMEOUT)
        expect(page.locator(".key-results dd").first).not_to_be_empty()
        screenshot(f"lab-{slug}")
    page.goto(module)
    screenshot("module-after")
