"""The author preview in a real browser: an instructor goes from the question page to the
preview, sees variant 0 and then the next variant with other numbers, and tries an answer
that is graded there and not stored."""

import pytest
from playwright.sync_api import Page, expect

from courses.models import Exercise
from grading.models import Submission
from tests.browser.conftest import sign_in

pytestmark = pytest.mark.services


def test_instructor_previews_an_exercise_in_two_variants(page: Page, live_server, requests_seen,
                                                         course, irene):
    sign_in(page, live_server, "irene")
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/statistics/")
    page.locator(f"a.preview-link[href$='/exercises/{exercise.pk}/preview/']").first.click()
    expect(page.locator("#variant-heading")).to_have_text("Variant 0")
    first = page.locator(".variant-params").inner_text()
    page.locator("#next-variant").click()
    expect(page.locator("#variant-heading")).to_have_text("Variant 1")
    assert page.locator(".variant-params").inner_text() != first
    field = page.locator(".preview-part input").first
    key = page.locator(".key-answer").first.inner_text()
    field.fill(key)
    page.locator("#try-answers").click()
    expect(page.locator(".tried").first).to_have_attribute("data-outcome", "correct")
    expect(page.locator("#variant-heading")).to_have_text("Variant 1")
    assert Submission.objects.count() == 0


def test_instructor_tries_a_carried_part_with_an_earlier_answer_and_reads_values(
        page: Page, live_server, requests_seen, screenshot, course, irene):
    from courses.models import Part

    later = Part.objects.get(exercise__slug="apply-2-sequential-steps", key="attention_steps")
    later.spec = {"type": "integer", "reference": '2*answer("rnn_steps")',
                  "carried_credit": 0.5}
    later.save(update_fields=["spec"])
    sign_in(page, live_server, "irene")
    apply_1 = Exercise.objects.get(slug="apply-1-gradient-bound")
    page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/exercises/{apply_1.pk}/preview/")
    bound = page.locator('.preview-part[data-part="bound"]')
    expect(bound.locator(".key-value")).to_have_text("≈ 0.0015023")  # not a 50-digit fraction
    expect(bound.locator(".key-answer")).not_to_be_visible()  # folded away
    expect(bound.locator(".preview-misconceptions")).to_contain_text("34 (sigma*steps)")
    screenshot("values")

    apply_2 = Exercise.objects.get(slug="apply-2-sequential-steps")
    page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/exercises/{apply_2.pk}/preview/")
    part = page.locator('.preview-part[data-part="attention_steps"]')
    expect(part).not_to_contain_text("check_answers")
    part.get_by_label("Answer to part rnn_steps").fill("1001")
    part.get_by_label("Try an answer").fill("2002")
    page.locator("#try-answers").click()
    part = page.locator('.preview-part[data-part="attention_steps"]')
    expect(part.locator(".tried")).to_have_attribute("data-outcome", "partial")
    expect(part.locator(".tried")).to_contain_text("Marked using your answer to (rnn_steps)")
    expect(part.get_by_label("Answer to part rnn_steps")).to_have_value("1001")
    screenshot("carried")
    assert Submission.objects.count() == 0
