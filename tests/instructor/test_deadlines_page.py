"""The dashboard's Deadlines page in a course of several modules (issue 37 item 8): the
exercises under a heading per module, each named, with the date the class sees (the module's
own where the exercise has none); one due date for a module asks which module."""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from courses.models import CourseModule, Exercise, Module
from grading.models import Deadline

pytestmark = pytest.mark.django_db


@pytest.fixture
def six(course):
    return CourseModule.objects.create(
        course=course, module=Module.objects.get(slug="module-06"), order=1,
        due_at=datetime(2030, 12, 14, 17, 0, tzinfo=ZoneInfo("UTC")))


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_exercises_are_grouped_under_their_module(client, course, irene, six):
    client.force_login(irene)
    html = client.get(reverse("dashboard:deadlines", args=[course.slug])).content.decode()
    five_at = html.index("<h3 id=\"deadlines-module-05\">Module 5: From recurrent networks")
    six_at = html.index("<h3 id=\"deadlines-module-06\">Module 6: Self-attention</h3>")
    five_titles = Exercise.objects.active().filter(module_id=course.module_id)
    six_titles = Exercise.objects.active().filter(module=six.module)
    assert all(five_at < html.index(f">{e.title}</th>") < six_at for e in five_titles)
    assert all(html.index(f">{e.title}</th>") > six_at for e in six_titles)
    assert "The module is due 2030-12-14 17:00 UTC" in _text(html)
    assert _text(html).count("2030-12-14 17:00 UTC (the module's)") == six_titles.count()


def test_one_due_date_asks_which_module_and_sets_only_it(client, course, irene, six):
    client.force_login(irene)
    url = reverse("dashboard:deadlines", args=[course.slug])
    html = client.get(url).content.decode()
    assert '<select id="due-module-choice" name="module" required>' in html
    assert f'<option value="{six.module_id}">Module 6: Self-attention</option>' in html
    refused = client.post(url, {"action": "module", "due_at": "2030-07-01T12:00"}, follow=True)
    assert "Choose the module" in refused.content.decode() and not Deadline.objects.exists()
    client.post(url, {"action": "module", "module": six.module_id, "due_at": "2030-07-01T12:00"})
    assert set(Deadline.objects.values_list("exercise__module_id", flat=True)) == {six.module_id}
