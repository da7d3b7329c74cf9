"""Issue 37 in a real browser: a later part keeps, and shows, the credit it earned from the
student's old answer to an earlier part after the student corrects that part on the page
(item 3); a closed exercise's part says its state in one sentence (item 4)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from courses.models import Exercise, Part
from grading.deadlines import deadline_set
from grading.services import submission_create
from grading.variant_assignment import variant_for
from tests.browser.conftest import sign_in

pytestmark = pytest.mark.services


def test_correcting_part_a_on_the_page_keeps_part_b_s_carried_credit_in_view(
    page: Page, live_server, requests_seen, screenshot, alice, course, carried_chain
):
    first, later = carried_chain
    n = variant_for(student=alice, course=course, exercise=first.exercise).params["N"]
    submission_create(student=alice, course=course, part=first, raw_answer=str(n + 1))
    submission_create(student=alice, course=course, part=later, raw_answer=str(2 * (n + 1)))

    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/")
    b = page.locator(f"#part-{later.pk}")
    expect(b.locator(".verdict")).to_contain_text("Marked using your answer to (rnn_steps)")

    a = page.locator(f"#part-{first.pk}")
    a.get_by_label("Your answer").fill(str(n))
    a.get_by_role("button", name="Submit answer").click()
    expect(a.locator(".verdict")).to_contain_text("Correct")

    page.reload()
    b = page.locator(f"#part-{later.pk}")
    expect(b.locator(".verdict")).to_contain_text("Partly correct · score 0.5")
    expect(b.locator(".verdict .feedback")).to_contain_text(
        f"Kept from your answer to (rnn_steps) when you answered this part ({n + 1}): you "
        "have changed it since")
    b.locator(".history summary").click()
    expect(b.locator(".history li")).to_contain_text(
        f"Partly correct, score 0.5 (Kept from your answer to (rnn_steps) when you answered "
        f"this part ({n + 1}))")
    screenshot("kept")


def test_a_closed_exercise_states_each_part_once(page: Page, live_server, requests_seen,
                                                  screenshot, alice, irene, course):
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    part = Part.objects.get(exercise=exercise, key="bound")
    deadline_set(course=course, exercise_id=exercise.pk,
                 due_at=timezone.now() - timedelta(hours=1), by=irene)
    sign_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/courses/{course.slug}/")
    box = page.locator(f"#part-{part.pk}")
    expect(box.locator(".attempts")).to_have_text("Closed (attempts used: 0 of 5).")
    text = box.inner_text()
    assert "left" not in text and "No attempts" not in text
    screenshot("closed")
