"""A student of a course of two modules in a real browser (issue 23 item 1): the home page
lists Module 5 and Module 6 with progress and Module 6's due date, Module 6 opens on its own
page from there, and an answer there comes back to the part on Module 6's page."""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, expect

from courses.models import CourseModule, Module, Part
from grading.models import Submission
from grading.variant_assignment import variant_for
from tests.browser.conftest import sign_in

pytestmark = pytest.mark.services


@pytest.fixture
def module_6(course) -> CourseModule:
    return CourseModule.objects.create(
        course=course, module=Module.objects.get(slug="module-06"), order=1,
        due_at=datetime(2030, 12, 14, 17, 0, tzinfo=ZoneInfo("UTC")))


def test_a_student_opens_module_6_from_home_answers_and_comes_back_to_the_part(
        browser: Browser, live_server, alice, course, module_6):
    part = Part.objects.select_related("exercise").get(exercise__slug="multi-head-shapes",
                                                       key="head_shape")
    p = variant_for(student=alice, course=course, exercise=part.exercise).params
    total = Part.objects.filter(exercise__module=module_6.module).count()
    # Without JavaScript the answer is a plain POST and a redirect: where it lands is tested.
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        sign_in(page, live_server, "alice")
        modules = page.locator(".module-table tbody tr")
        expect(modules).to_have_count(2)
        expect(modules.nth(0)).to_contain_text("Module 5: From recurrent networks to attention")
        expect(modules.nth(1)).to_contain_text("Module 6: Self-attention")
        expect(modules.nth(1)).to_contain_text(f"0 of {total}")
        expect(modules.nth(1)).to_contain_text("Due 14 Dec, 17:00 (UTC)")

        page.get_by_role("link", name="Module 6: Self-attention").click()
        page.wait_for_url(f"**/courses/{course.slug}/modules/module-06/")
        expect(page.get_by_role("heading", level=1)).to_have_text("Module 6: Self-attention")
        expect(page.locator("[id='s-5.1']")).to_have_count(0)
        expect(page.locator("[id='s-6.1']")).to_have_count(1)
        nav = page.get_by_role("navigation", name="Modules of the course").first
        expect(nav.get_by_role("link", name=re.compile("Module 5"))).to_be_visible()

        box = page.locator(f"#part-{part.pk}")
        box.get_by_label("Your answer").fill(f"[{p['tokens']}, {p['d_model'] // p['h']}]")
        box.get_by_role("button", name="Submit answer").click()
        page.wait_for_url(f"**/courses/{course.slug}/modules/module-06/#part-{part.pk}")
        expect(box.locator(".done")).to_contain_text("Solved (attempts used:")
        assert Submission.objects.get(student=alice, part=part).outcome == "correct"

        page.get_by_role("link", name="Grader").click()  # the header's link home
        expect(page.locator(".module-table tbody tr").nth(1)).to_contain_text(f"1 of {total}")
    finally:
        context.close()
