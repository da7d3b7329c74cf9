"""The Django admin lists every content model with its filters and search."""

import pytest
from django.urls import reverse

from courses.models import CourseModule
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MODELS = ["module", "section", "figure", "lab", "exercise", "part", "course", "enrollment"]


@pytest.mark.parametrize("model", MODELS)
def test_admin_changelist_filters_and_searches(client, module_05, course, model):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    url = reverse(f"admin:courses_{model}_changelist")
    assert client.get(url).status_code == 200
    assert client.get(url, {"q": "attention"}).status_code == 200


def test_archived_filter_shows_only_archived_content(client, module_05):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:courses_exercise_changelist"), {"archived": "yes"})
    assert "0 exercises" in page.content.decode()


@pytest.mark.parametrize("model", ["submission", "review", "gradeoverride", "deadline",
                                   "deadlineextension"])
def test_grading_admin_changelists_load(client, model):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    url = reverse(f"admin:grading_{model}_changelist")
    assert client.get(url, {"q": "x"}).status_code == 200


def test_a_course_s_modules_weights_and_dates_are_edited_on_its_page(client, course):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:courses_course_change", args=[course.pk])).content.decode()
    link = CourseModule.objects.get(course=course)
    assert f'name="course_modules-0-weight" value="{link.weight}"' in page
    assert 'name="course_modules-0-release_at' in page
