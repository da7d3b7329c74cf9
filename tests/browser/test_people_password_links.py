"""Signing in without an LMS, in a real browser (issue 37 item 10): an instructor makes a
password link on the People page for a person enrolled from a CSV file, who opens it, chooses
a password and lands in their course, signed in; a student with an account joins another
course by signing in on its invite page; where the service sends e-mail, a person without a
password gets a link from the sign-in page."""

import re

import pytest
from playwright.sync_api import Browser, expect

from courses.models import Enrollment
from courses.people import invite_create
from courses.people_import import people_import
from tests.browser.conftest import sign_in
from tests.factories import TEST_PASSWORD

pytestmark = pytest.mark.services

PASSWORD = "a long passphrase 47"


@pytest.fixture
def carol(course, irene):
    people_import(course=course, by=irene, apply=True,
                  text="username,email,first_name\ncarol,carol@example.org,Carol\n")
    return Enrollment.objects.get(course=course, user__username="carol").user


def _choose_password(page) -> None:
    expect(page.get_by_role("heading", level=1)).to_have_text("Choose your password")
    page.get_by_label("New password").fill(PASSWORD)
    page.get_by_label("The same password again").fill(PASSWORD)
    page.get_by_role("button", name="Set password and sign in").click()
    expect(page.get_by_role("heading", name="Your courses")).to_be_visible()
    expect(page.get_by_text("Your password is set and you are signed in.")).to_be_visible()


def test_a_person_enrolled_from_a_csv_file_signs_in_through_a_password_link(
        browser: Browser, live_server, course, irene, carol):
    staff = browser.new_page()
    sign_in(staff, live_server, "irene")
    staff.goto(f"{live_server.url}/courses/{course.slug}/dashboard/people/")
    staff.get_by_role("button", name="Password link for carol").click()
    link = staff.get_by_label("Send this link to Carol (carol@example.org)").input_value()
    assert link.startswith(f"{live_server.url}/accounts/password/")
    staff.close()

    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(link)
        _choose_password(page)
        expect(page.get_by_role("link", name="RNNs, autumn")).to_be_visible()
        page.get_by_role("button", name="Sign out").click()
        sign_in(page, live_server, "carol", PASSWORD)
        page.goto(link)  # used: it says so and what to do
        expect(page.get_by_role("alert")).to_contain_text("This password link has been used")
    finally:
        context.close()


def test_a_student_signs_in_on_an_invite_page_and_joins(browser: Browser, live_server, course,
                                                       other_course, oscar, alice):
    invite = invite_create(course=other_course, by=oscar, role="student")
    page = browser.new_page()
    try:
        page.goto(f"{live_server.url}/invite/{invite.token}/")
        form = page.get_by_role("form", name="Have an account? Sign in")
        form.get_by_label("Username").fill("alice")
        form.get_by_label("Password").fill(TEST_PASSWORD)
        form.get_by_role("button", name="Sign in").click()
        expect(page.get_by_text("You are signed in as alice.")).to_be_visible()
        page.get_by_role("button", name="Join the course").click()
        page.wait_for_url(f"**/courses/{other_course.slug}/")
        expect(page.get_by_text(f"You joined {other_course.title}.")).to_be_visible()
    finally:
        page.close()


def test_where_the_service_sends_e_mail_a_person_without_a_password_gets_a_link(
        browser: Browser, live_server, settings, mailoutbox, carol):
    settings.PASSWORD_RESET_BY_EMAIL = True
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_role("link", name="Forgot your password, or never had one?").click()
        page.get_by_label("E-mail").fill("carol@example.org")
        page.get_by_role("button", name="Send the link").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Check your e-mail")
        [mail] = mailoutbox
        found = re.search(r"http://\S+/accounts/password/\S+/", mail.body)
        assert found is not None, mail.body
        page.goto(found.group(0))
        _choose_password(page)
    finally:
        context.close()
