"""Issue 43 item 1, the operators' pages: Django's admin site and the REST API's Swagger UI page
(api-docs), at 1280 px and at 390 px, have no WCAG 2.2 A/AA violation that axe-core finds and
show the focus on everything the keyboard reaches; under the site's real Content-Security-Policy
(no `bypass_csp`: the project's fixes are a stylesheet and a script served from its static
files, config/static/admin-a11y.css and admin-a11y.js).

The admin's pages are walked by page type (login, index, an app index, a changelist with rows,
a change form, an add form, a delete confirmation, a user's password form, password change and
its done page, history, the signed-out page): every model's admin page of one type is the same
Django template with the project's overrides (templates/admin/, config/static/admin-a11y.css).
`walked_here` says which named routes the walks here stand for; the route coverage test in
test_accessibility_walk.py uses it.
"""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import re
from typing import cast

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from courses.models import Course, Enrollment
from tests.browser.axe import axe_in_every_page, unseen_focus, wcag_violations
from tests.browser.conftest import sign_in
from tests.factories import TEST_PASSWORD, UserFactory

pytestmark = pytest.mark.services

WIDTHS = (1280, 390)

#: The admin's page types by the suffix of a model's route name, and the model page walked for
#: each (courses.Enrollment: the one model the admin lets an operator add, change and delete).
ADMIN_MODEL_PAGE_TYPES = ("changelist", "add", "change", "delete", "history")
#: The admin's own routes that are pages, walked one by one.
ADMIN_SITE_PAGES = ("admin:login", "admin:index", "admin:app_list", "admin:password_change",
                    "admin:password_change_done", "admin:auth_user_password_change")

_MODEL_ROUTE = re.compile(r"^admin:\w+_(changelist|add|change|delete|history)$")


def walked_here(route: str) -> bool:
    """Is `route` a page this module's walks check: the API docs page, one of the admin site's
    own pages, or a model's admin page of a type walked here (every model's page of one type
    is one template)?"""
    if route == "api-docs" or route in ADMIN_SITE_PAGES:
        return True
    match = _MODEL_ROUTE.match(route)
    return match is not None and match.group(1) in ADMIN_MODEL_PAGE_TYPES


def _check(page: Page, label: str, problems: list[str]) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        problems += [f"{label} at {width} px: {v}" for v in wcag_violations(page)]
    problems += [f"{label}: focus not shown on {e}" for e in unseen_focus(page)]


def _goto(page: Page, url: str, problems: list[str]) -> None:
    response = page.goto(url)
    if response is None or response.status != 200:
        problems.append(f"{url}: not shown")


def test_every_admin_page_type_has_no_wcag_22_aa_violation(browser: Browser, live_server,
                                                           course: Course, alice: User):
    root = cast(User, UserFactory(username="root", is_staff=True, is_superuser=True))
    enrollment = Enrollment.objects.get(user=alice, course=course)
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 900})
    axe_in_every_page(context)
    page = context.new_page()
    problems: list[str] = []
    base = live_server.url
    try:
        _goto(page, f"{base}/admin/login/", problems)
        _check(page, "admin login", problems)
        page.get_by_label("Username").fill("root")
        page.get_by_label("Password").fill(TEST_PASSWORD)
        page.get_by_role("button", name="Log in").click()
        expect(page.locator("#site-name")).to_be_visible()
        _check(page, "admin index", problems)
        enrollments = f"{base}/admin/courses/enrollment/"
        for label, url in [
                ("admin app index", f"{base}/admin/courses/"),
                ("admin changelist", enrollments),
                ("admin change form", f"{enrollments}{enrollment.pk}/change/"),
                ("admin add form", f"{enrollments}add/"),
                ("admin delete confirmation", f"{enrollments}{enrollment.pk}/delete/"),
                ("admin history", f"{enrollments}{enrollment.pk}/history/"),
                ("admin user changelist", f"{base}/admin/auth/user/"),
                ("admin user change form", f"{base}/admin/auth/user/{alice.pk}/change/"),
                ("admin user's password form", f"{base}/admin/auth/user/{alice.pk}/password/"),
                ("admin password change", f"{base}/admin/password_change/"),
                ("admin password change done", f"{base}/admin/password_change/done/")]:
            _goto(page, url, problems)
            _check(page, label, problems)
        assert root.pk  # signed in as the superuser throughout
    finally:
        context.close()
    assert problems == []


def test_the_api_docs_page_has_no_wcag_22_aa_violation(browser: Browser, live_server,
                                                       course: Course, irene: User):
    """Swagger UI (api-docs), and with an operation opened, tried out and executed (its
    request and the server's response shown): the project's stylesheet
    (config/static/swagger-a11y.css) and SWAGGER_UI_SETTINGS make it conform."""
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 900})
    axe_in_every_page(context)
    page = context.new_page()
    problems: list[str] = []
    try:
        sign_in(page, live_server, "irene")
        _goto(page, f"{live_server.url}/api/v1/docs/", problems)
        expect(page.locator(".opblock").first).to_be_visible(timeout=15_000)
        _check(page, "API docs", problems)
        page.locator(".opblock-summary-control").first.click()
        page.get_by_role("button", name="Try it out").first.click()
        page.get_by_role("button", name="Execute").first.click()
        expect(page.locator(".live-responses-table").first).to_be_visible()
        _check(page, "API docs, an operation tried out", problems)
    finally:
        context.close()
    assert problems == []
