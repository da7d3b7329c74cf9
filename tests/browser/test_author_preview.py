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
