"""A course of two modules through the API: the modules list, each item's module, the module
filter, the deprecated single-module endpoint, and students kept out of unreleased modules."""

from datetime import timedelta

import pytest
from django.utils import timezone

from courses.models import CourseModule, Module, Part
from grading.events import submission_graded_payload
from grading.models import Submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_modules(course):
    """`course` runs Module 5, then Module 6 (weight 2, due in a week)."""
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=1, weight=2.0, due_at=timezone.now() + timedelta(days=7))
    return course


@pytest.fixture
def six_unreleased(two_modules):
    CourseModule.objects.filter(course=two_modules, module__slug="module-06").update(
        release_at=timezone.now() + timedelta(days=1))
    return two_modules


def _url(course, tail):
    return f"/api/v1/courses/{course.slug}/{tail}"


def test_the_modules_list_gives_order_dates_weight_and_items(two_modules, irene, client_for):
    data = client_for(irene).get(_url(two_modules, "modules/")).json()["results"]
    assert [(m["slug"], m["order"], m["weight"]) for m in data] == [
        ("module-05", 0, 1.0), ("module-06", 1, 2.0)]
    six = data[1]
    assert six["release_at"] is None and six["due_at"] is not None
    assert {e["slug"] for e in six["exercises"]} == set(
        Module.objects.get(slug="module-06").exercises.values_list("slug", flat=True))
    assert six["sections"] and six["exercises_url"].endswith("exercises/?module=module-06")


def test_exercises_and_sections_carry_their_module_and_filter_by_it(two_modules, irene,
                                                                    client_for):
    client = client_for(irene)
    exercises = client.get(_url(two_modules, "exercises/?limit=100")).json()["results"]
    modules = [e["module"] for e in exercises]
    assert modules == sorted(modules) and set(modules) == {"module-05", "module-06"}
    only = client.get(_url(two_modules, "exercises/?limit=100&module=module-06")).json()
    assert {e["module_number"] for e in only["results"]} == {"6"}
    sections = client.get(_url(two_modules, "sections/?module=module-05&limit=100")).json()
    assert {s["module"] for s in sections["results"]} == {"module-05"}


def test_the_old_module_endpoint_still_gives_the_first_module(two_modules, alice, client_for):
    assert client_for(alice).get(_url(two_modules, "module/")).json()["slug"] == "module-05"


def test_students_do_not_see_unreleased_modules(six_unreleased, alice, irene, client_for):
    student = client_for(alice)
    six = Module.objects.get(slug="module-06")
    exercise = six.exercises.first()
    section = six.sections.first()
    assert [m["slug"] for m in student.get(_url(six_unreleased, "modules/")).json()["results"]] \
        == ["module-05"]
    listed = student.get(_url(six_unreleased, "exercises/?limit=100")).json()["results"]
    assert {e["module"] for e in listed} == {"module-05"}
    assert student.get(_url(six_unreleased, f"exercises/{exercise.slug}/")).status_code == 404
    assert student.get(_url(six_unreleased, f"sections/{section.slug}/")).status_code == 404
    row = student.get(_url(six_unreleased, f"gradebook/students/{alice.pk}/")).json()
    assert {c["module"] for c in row["columns"]} == {"module-05"}
    part = Part.objects.filter(exercise__module=six).first()
    refused = student.post(_url(six_unreleased, "submissions/"), {"part": part.pk, "answer": "1"},
                           format="json")
    assert refused.status_code == 400
    staff = client_for(irene)
    assert len(staff.get(_url(six_unreleased, "modules/")).json()["results"]) == 2
    assert staff.get(_url(six_unreleased, f"exercises/{exercise.slug}/")).status_code == 200


def test_the_gradebook_gives_points_per_module_and_the_weighted_total(
        two_modules, alice, lms_token, key_client):
    data = key_client(lms_token).get(_url(two_modules, "gradebook/")).json()
    assert [(m["slug"], m["weight"]) for m in data["modules"]] == [
        ("module-05", 1.0), ("module-06", 2.0)]
    assert "\u00d72" in data["total_formula"]
    assert {c["module"] for c in data["columns"]} == {"module-05", "module-06"}
    row = data["rows"][0]
    assert row["modules"] == {"module-05": 0.0, "module-06": 0.0}
    assert row["course_percent"] == 0.0
    one = key_client(lms_token).get(_url(two_modules, "gradebook/?module=module-06")).json()
    assert [m["slug"] for m in one["modules"]] == ["module-06"]
    none = key_client(lms_token).get(_url(two_modules, "gradebook/?module=nope")).json()
    assert none["columns"] == []


def test_the_graded_webhook_payload_names_the_module(course, alice):
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    submission = Submission.objects.create(student=alice, course=course, part=part,
                                           raw_answer="1")
    payload = submission_graded_payload(submission.pk)
    assert (payload["module"], payload["module_number"]) == ("module-05", "5")
