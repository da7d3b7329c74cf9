"""The home page's "Due dates" in a course of several modules (issue 37 item 8): grouped by
module and short (the exercises due on their module's date are one line; others are named;
closed ones one line), the same dates on a TA's home page as on a student's."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from courses.models import CourseModule, Exercise, Module
from grading.deadlines import deadline_set, extension_set

pytestmark = pytest.mark.django_db


def _due_list(client) -> str:
    html = client.get(reverse("home")).content.decode()
    start = html.index('<div class="due-list"')
    block = html[start:html.index("</div>", start)]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", block)).replace(" :", ":").strip()


@pytest.fixture
def dated(course, irene):
    """Module 5 due in 10 days; Module 6 due in 20, one of its exercises in 5 days and one
    closed yesterday."""
    now = timezone.now().replace(second=0, microsecond=0)
    CourseModule.objects.filter(course=course, module_id=course.module_id).update(
        due_at=now + timedelta(days=10))
    six = CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                      order=1, due_at=now + timedelta(days=20))
    first, second = Exercise.objects.active().filter(module=six.module).order_by("order")[:2]
    deadline_set(course=course, exercise_id=first.pk, due_at=now + timedelta(days=5), by=irene)
    deadline_set(course=course, exercise_id=second.pk, due_at=now - timedelta(days=1), by=irene)
    return course, first, second


def test_the_list_is_one_short_group_per_module(client, dated, alice):
    course, first, second = dated
    five = Exercise.objects.active().filter(module_id=course.module_id).count()
    six = Exercise.objects.active().filter(module=first.module).count()
    client.force_login(alice)
    text = _due_list(client)
    assert text.startswith("Module 5: From recurrent networks to attention Every exercise: Due ")
    assert "Module 6: Self-attention" in text
    shared = six - 2
    assert (f"{shared} exercise{'s' if shared != 1 else ''} (those without a date of their "
            "own): Due ") in text
    assert f"{first.title}: Due " in text and f"Closed: {second.title}" in text
    assert text.count("Due ") == 3  # three lines, not one per exercise as before
    assert five + six > 10


def test_an_extension_is_listed_by_name_and_not_in_the_shared_line(client, dated, alice,
                                                                   irene):
    course, first, _ = dated
    third = Exercise.objects.active().filter(module=first.module).order_by("order")[2]
    extension_set(course=course, exercise_id=third.pk, student_id=alice.pk,
                  due_at=timezone.now() + timedelta(days=30), reason="", by=irene)
    client.force_login(alice)
    text = _due_list(client)
    assert f"{third.title}: Extended to " in text


def test_a_ta_s_home_page_shows_the_class_s_due_dates_as_students_see_them(client, dated,
                                                                          alice, tara):
    client.force_login(alice)
    students = _due_list(client)
    client.force_login(tara)
    html = client.get(reverse("home")).content.decode()
    assert "Due dates" in html and "(the class's)" in html
    assert _due_list(client) == students
    assert "next for you" not in html and "next: " in re.sub(r"<[^>]+>", "", html)
