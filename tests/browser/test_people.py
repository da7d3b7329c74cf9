"""People without the admin in a real browser (issue 23 item 3): an instructor creates a
course of Modules 5 and 6 from the home page, makes a student invite link on its People tab,
and a newcomer opens the link, creates an account there and lands in the course; the People
page has no accessibility violation."""

import pytest
from playwright.sync_api import Browser, expect

from courses.models import CourseModule, Enrollment
from tests.browser.conftest import sign_in
from tests.browser.test_issue_25_pages import _axe_violations

pytestmark = pytest.mark.services


def test_an_instructor_creates_a_course_and_a_newcomer_joins_it_through_an_invite_link(
        browser: Browser, live_server, course, irene):
    # The instructor's context bypasses the CSP only so that axe can be injected.
    staff = browser.new_context(bypass_csp=True)
    page = staff.new_page()
    sign_in(page, live_server, "irene")
    page.get_by_role("link", name="Create a course").click()
    page.get_by_label("Title").fill("Neural networks, spring")
    page.get_by_label("Short name (in the course's address)").fill("nn-spring")
    page.get_by_label("Module 5: From recurrent networks to attention").check()
    page.get_by_label("Module 6: Self-attention").check()
    page.get_by_role("button", name="Create course").click()
    page.wait_for_url("**/courses/nn-spring/dashboard/content/")
    assert list(CourseModule.objects.filter(course__slug="nn-spring").order_by("order")
                .values_list("module__slug", flat=True)) == ["module-05", "module-06"]

    page.get_by_role("link", name="People").click()
    page.get_by_role("button", name="Create link").click()
    link = page.get_by_label("Invite link").first.input_value()
    assert link.startswith(f"{live_server.url}/invite/")
    assert _axe_violations(page) == []
    staff.close()

    context = browser.new_context()
    try:
        newcomer = context.new_page()
        newcomer.goto(link)
        expect(newcomer.get_by_role("heading", level=1)).to_have_text(
            "Join Neural networks, spring")
        sign_up = newcomer.get_by_role("form", name="New here? Create an account")
        sign_up.get_by_label("Username").fill("newbie")
        sign_up.get_by_label("E-mail").fill("newbie@example.org")
        sign_up.get_by_label("Password").fill("a long passphrase 47")
        sign_up.get_by_role("button", name="Create account and join").click()
        newcomer.wait_for_url("**/courses/nn-spring/")
        expect(newcomer.get_by_role("link", name="Module 6: Self-attention").first).to_be_visible()
    finally:
        context.close()
    assert Enrollment.objects.get(course__slug="nn-spring", user__username="newbie").role == \
        "student"
