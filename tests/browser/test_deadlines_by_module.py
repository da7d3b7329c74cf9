"""Deadlines in a course of two modules, in a real browser (issue 37 item 8): the instructor's
Deadlines page names each module over its exercises and sets one module's due date after
asking which; a student's "Due dates" is a short list per module; a TA's home page shows the
same dates."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import Browser, expect

from courses.models import CourseModule, Exercise, Module
from grading.deadlines import deadline_set
from grading.models import Deadline
from tests.browser.conftest import sign_in

pytestmark = pytest.mark.services


@pytest.fixture
def two_modules(course, irene):
    from django.utils import timezone
    now = timezone.now().replace(second=0, microsecond=0)
    CourseModule.objects.filter(course=course, module_id=course.module_id).update(
        due_at=now + timedelta(days=10))
    six = CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                      order=1, due_at=now + timedelta(days=20))
    first = Exercise.objects.active().filter(module=six.module).order_by("order").first()
    deadline_set(course=course, exercise_id=first.pk, due_at=now + timedelta(days=5), by=irene)
    return course


def test_the_deadlines_page_names_each_module_and_asks_which_for_one_due_date(
        browser: Browser, live_server, two_modules):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        sign_in(page, live_server, "irene")
        page.goto(f"{live_server.url}/courses/{two_modules.slug}/dashboard/deadlines/")
        five = page.get_by_role("region", name="Module 5: From recurrent networks to attention")
        six = page.get_by_role("region", name="Module 6: Self-attention")
        expect(five.get_by_role("rowheader", name="Apply 1", exact=True)).to_be_visible()
        expect(six.get_by_text("(the module's)").first).to_be_visible()
        page.get_by_label("Module", exact=True).select_option(label="Module 6: Self-attention")
        page.get_by_label("every exercise due").fill("2030-07-01T12:00")
        page.get_by_role("button", name="Set for every exercise of the module").click()
        expect(page.get_by_text("Due date set for every exercise of the module.")).to_be_visible()
        modules = set(Deadline.objects.filter(course=two_modules).values_list(
            "exercise__module__slug", flat=True))
        assert modules == {"module-06"}
    finally:
        page.close()


def test_students_and_tas_read_the_same_short_due_dates_per_module(browser: Browser,
                                                                   live_server, two_modules,
                                                                   alice, tara):
    seen = {}
    for who in ("alice", "tara"):
        page = browser.new_page(viewport={"width": 390, "height": 900})
        try:
            sign_in(page, live_server, who)
            due = page.get_by_role("group", name=re.compile("^Due dates"))
            expect(due.get_by_role("heading", name="Module 6: Self-attention")).to_be_visible()
            expect(due).to_contain_text("Every exercise: Due ")
            assert due.get_by_role("listitem").count() == 3  # Module 5; Module 6 and Apply 1
            seen[who] = due.locator("ul").all_inner_texts()
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        finally:
            page.close()
    assert seen["alice"] == seen["tara"]
