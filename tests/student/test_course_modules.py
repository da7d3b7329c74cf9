"""A course of several modules on the student's side (issue 23 item 1): the home page and
the course page list the modules in order with progress, due dates and when one opens;
each module has its own page with the way to the previous and next; answers, labs and due
dates link to the item's own module page. A course of one module keeps its one page."""

import re
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from courses.models import CourseModule, Module, Part
from courses.services import content_sync
from grading.deadlines import deadline_set
from grading.models import Submission

pytestmark = pytest.mark.django_db

MARKING = Path(__file__).resolve().parents[1] / "fixtures" / "marking"
MODULE_6_DUE = datetime(2030, 12, 14, 17, 0, tzinfo=ZoneInfo("UTC"))
#: With the session, the user and the content cached: the live-session banner, the
#: selector's reads (courses, sections, parts, submissions) and, once a module has a due
#: date, alice's extensions and the later module's own read
HOME_QUERIES = 7


def _text(page: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page.decode()))


@pytest.fixture
def module_6(course) -> CourseModule:
    """`course` runs Module 5, then Module 6 (due 14 Dec 2030, 17:00 UTC)."""
    return CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                       order=1, due_at=MODULE_6_DUE)


def _page(course, module_slug: str) -> str:
    return reverse("module-page", args=[course.slug, module_slug])


def _part(exercise: str, key: str) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug=exercise, key=key)


def test_home_lists_the_modules_in_order_with_progress_and_due_dates(client, alice, course,
                                                                     module_6):
    client.force_login(alice)
    page = client.get(reverse("home")).content
    text = _text(page)
    five, six = text.index("Module 5: From recurrent"), text.index("Module 6: Self-attention")
    assert five < six
    assert re.search(r"Module 6: Self-attention 0 of \d+ Due 14 Dec, 17:00 \(UTC\)", text)
    assert f'href="{_page(course, "module-06")}"' in page.decode()
    assert f'href="{_page(course, "module-05")}"' in page.decode()
    assert "Weight" not in text  # equal weights are not shown


def test_home_shows_the_weights_only_when_they_differ(client, alice, course, module_6):
    CourseModule.objects.filter(pk=module_6.pk).update(weight=2.0)
    client.force_login(alice)
    assert "Weight" in _text(client.get(reverse("home")).content)


def test_home_names_the_soonest_own_deadline_of_each_module(client, alice, irene, course,
                                                            module_6):
    due = datetime(2030, 12, 1, 9, 0, tzinfo=ZoneInfo("UTC"))
    exercise = _part("multi-head-shapes", "head_shape").exercise
    deadline_set(course=course, exercise_id=exercise.pk, due_at=due, by=irene)
    client.force_login(alice)
    text = _text(client.get(reverse("home")).content)
    assert f"next for you: {exercise.title}, due 1 Dec, 09:00 (UTC)" in text
    page = client.get(reverse("home")).content.decode()
    # the due-date list links to the exercise on Module 6's page
    assert f'href="{_page(course, "module-06")}#exercise-{exercise.slug}"' in page


def _home_queries(client) -> int:
    """The home page's queries once the caches hold the session, user and content."""
    client.get(reverse("home"))
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("home")).status_code == 200
    return len(queries)


def test_the_home_page_costs_the_same_queries_whatever_the_number_of_modules(
        client, alice, course):
    client.force_login(alice)
    one = _home_queries(client)
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=1, due_at=MODULE_6_DUE)
    two = _home_queries(client)
    content_sync(root=MARKING)
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-91-marking"),
                                order=2, release_at=timezone.now() + timedelta(days=2))
    three = _home_queries(client)
    assert one == 5  # no due date anywhere: no exercise, extension or other module read
    assert two == three == HOME_QUERIES


def test_a_course_of_one_module_keeps_its_one_page(client, alice, course):
    client.force_login(alice)
    page = client.get(reverse("course-module", args=[course.slug])).content.decode()
    assert 'id="s-5.1"' in page and 'class="module-nav"' not in page


def test_the_course_page_of_several_modules_lists_them_with_links(client, alice, course, module_6):
    client.force_login(alice)
    response = client.get(reverse("course-module", args=[course.slug]))
    page = response.content.decode()
    assert response.templates[0].name == "student/course.html"
    assert f'href="{_page(course, "module-06")}"' in page
    assert f'href="{_page(course, "module-06")}#s-6.2"' in page
    assert 'id="s-5.1"' not in page and "<textarea" not in page  # no section shown in full
    assert "Due 14 Dec, 17:00 (UTC)" in _text(response.content)


def test_a_module_page_shows_its_own_sections_and_the_way_between_modules(
        client, alice, course, module_6):
    client.force_login(alice)
    six = client.get(_page(course, "module-06")).content.decode()
    assert 'id="s-6.1"' in six and 'id="s-5.1"' not in six
    assert "<h1>Module 6: Self-attention</h1>" in six
    assert f'href="{_page(course, "module-05")}" rel="prev"' in six
    assert 'rel="next"' not in six
    assert f'href="{reverse("course-module", args=[course.slug])}"' in six
    five = client.get(_page(course, "module-05")).content.decode()
    assert 'id="s-5.1"' in five and 'id="s-6.1"' not in five
    assert f'href="{_page(course, "module-06")}" rel="next"' in five


def test_a_module_the_course_does_not_run_is_404(client, alice, course, module_6):
    content_sync(root=MARKING)
    client.force_login(alice)
    assert client.get(_page(course, "module-91-marking")).status_code == 404
    assert client.get(_page(course, "no-such-module")).status_code == 404


def test_an_unreleased_module_page_is_404_for_students_and_open_to_staff(
        client, alice, irene, course, module_6):
    CourseModule.objects.filter(pk=module_6.pk).update(
        release_at=timezone.now() + timedelta(days=3))
    client.force_login(alice)
    assert client.get(_page(course, "module-06")).status_code == 404
    five = client.get(_page(course, "module-05")).content.decode()
    assert "Module 6: Self-attention (not open yet)" in five
    assert f'href="{_page(course, "module-06")}"' not in five
    client.force_login(irene)
    assert client.get(_page(course, "module-06")).status_code == 200


def test_an_answer_without_javascript_goes_back_to_the_part_on_its_module_page(
        client, alice, course, module_6):
    part = _part("multi-head-shapes", "head_shape")
    client.force_login(alice)
    response = client.post(reverse("part-answer", args=[course.slug, part.pk]),
                           {"answer": "[1, 2]"})
    assert response.status_code == 302
    assert response["Location"] == f'{_page(course, "module-06")}#part-{part.pk}'
    assert Submission.objects.filter(student=alice, part=part).exists()
    first = _part("apply-1-gradient-bound", "bound")
    response = client.post(reverse("part-answer", args=[course.slug, first.pk]), {"answer": "1"})
    assert response["Location"] == f'{_page(course, "module-05")}#part-{first.pk}'


def test_a_submission_and_the_preview_link_back_to_the_part_s_module_page(
        client, alice, course, module_6):
    part = _part("multi-head-shapes", "head_shape")
    client.force_login(alice)
    client.post(reverse("part-answer", args=[course.slug, part.pk]), {"answer": "[1, 2]"})
    submission = Submission.objects.get(student=alice, part=part)
    page = client.get(reverse("submission", args=[course.slug, submission.pk])).content.decode()
    assert f'href="{_page(course, "module-06")}#part-{part.pk}"' in page


def test_the_lab_page_links_back_to_its_module_page(client, alice, course, module_6):
    client.force_login(alice)
    page = client.get(reverse("lab", args=[course.slug, "self-attention"])).content.decode()
    assert f'href="{_page(course, "module-06")}#lab-self-attention"' in page
    assert f'{_page(course, "module-06")}#exercise-predict-unscaled-peak' in page
