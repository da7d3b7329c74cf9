"""A module whose release date is in the future (issue 23 item 1): students see when it opens
on their home and course page but cannot open it, and its parts refuse answers with the
opening date, storing nothing, as a closed deadline does; staff still open it."""

from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from courses.models import CourseModule, Module, Part
from courses.services import content_sync
from grading.models import Submission
from grading.services import SubmissionRefused, submission_create

pytestmark = pytest.mark.django_db

MARKING = Path(__file__).resolve().parents[1] / "fixtures" / "marking"


@pytest.fixture
def later(course):
    """module-91 as the course's second module, opening in three days."""
    content_sync(root=MARKING)
    module = Module.objects.get(slug="module-91-marking")
    return CourseModule.objects.create(course=course, module=module, order=1,
                                       release_at=timezone.now() + timedelta(days=3))


@pytest.fixture
def rename(later) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug="demo-relations",
                                                       key="rename")


def test_an_unreleased_module_refuses_answers_and_stores_nothing(course, alice, rename, later):
    with pytest.raises(SubmissionRefused, match=r"This module opens on \d\d \w+ \d{4}"):
        submission_create(student=alice, course=course, part=rename, raw_answer="x^2 + 1")
    assert not Submission.objects.exists()


def test_the_refusal_is_shown_at_the_part_on_the_web(client, course, alice, rename):
    client.force_login(alice)
    response = client.post(reverse("part-answer", args=[course.slug, rename.pk]),
                           {"answer": "x^2 + 1"}, follow=True)
    assert "This module opens on" in response.content.decode()
    assert not Submission.objects.exists()


def test_once_released_the_module_takes_answers(course, alice, rename, later):
    CourseModule.objects.filter(pk=later.pk).update(release_at=timezone.now() - timedelta(hours=1))
    submission = submission_create(student=alice, course=course, part=rename,
                                   raw_answer="x^2 + 1")
    assert submission.outcome == "correct"


def test_students_see_when_an_unreleased_module_opens_but_not_its_content(
        client, course, alice, irene, rename, later):
    client.force_login(alice)
    page_url = reverse("module-page", args=[course.slug, later.module.slug])
    for name in ("home", "course-module"):
        page = client.get(reverse(name, args=[] if name == "home" else [course.slug]))
        text = page.content.decode()
        assert "Marking rules" in text and "opens" in text  # listed, with its opening date
        assert page_url not in text and f"part-{rename.pk}" not in text
        assert reverse("module-page", args=[course.slug, "module-05"]) in text
    assert client.get(page_url).status_code == 404
    client.force_login(irene)
    staff_page = client.get(page_url)
    assert staff_page.status_code == 200 and f"part-{rename.pk}" in staff_page.content.decode()
    assert page_url in client.get(reverse("course-module", args=[course.slug])).content.decode()
