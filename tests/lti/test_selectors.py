"""Where resource links lead, what the picker offers (in a fixed number of queries), and
forgetting expired nonces."""

from datetime import timedelta

import pytest
from django.utils import timezone

from courses.models import CourseModule, Exercise, Lab, Module, Section
from lti.models import ResourceTarget, UsedNonce
from lti.selectors import picker_items, target_path
from lti.services.nonces import used_nonces_prune

pytestmark = pytest.mark.django_db


def _target(kind: str, uuid=None) -> ResourceTarget:
    return ResourceTarget(kind=kind, content_uuid=uuid)


def test_targets_open_the_lab_page_or_the_module_at_the_exercise_or_section(course):
    lab = Lab.objects.get(slug="vanishing-gradient")
    section = Section.objects.filter(module=course.module).order_by("order").first()
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    module = f"/courses/{course.slug}/"

    assert target_path(course=course, target=_target("lab", lab.uuid)) == (
        f"{module}labs/vanishing-gradient/")
    assert target_path(course=course, target=_target("section", section.uuid)) == (
        f"{module}#s-{section.number}")
    assert target_path(course=course, target=_target("exercise", exercise.uuid)) == (
        f"{module}#exercise-apply-1-gradient-bound")
    assert target_path(course=course, target=_target("module")) == module
    assert target_path(course=course, target=None) == module


def test_in_a_course_of_several_modules_targets_open_the_item_s_module_page(course):
    from courses.models import CourseModule, Module

    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=1)
    section = Section.objects.get(module__slug="module-06", number="6.2")
    exercise = Exercise.objects.get(slug="scores-matrix")
    six, five = (f"/courses/{course.slug}/modules/{slug}/" for slug in ("module-06", "module-05"))
    assert target_path(course=course, target=_target("section", section.uuid)) == f"{six}#s-6.2"
    assert target_path(course=course, target=_target("exercise", exercise.uuid)) == (
        f"{six}#exercise-scores-matrix")
    bound = Exercise.objects.get(slug="apply-1-gradient-bound")
    assert target_path(course=course, target=_target("exercise", bound.uuid)) == (
        f"{five}#exercise-apply-1-gradient-bound")
    assert target_path(course=course, target=None) == f"/courses/{course.slug}/"


def test_a_target_whose_content_was_archived_opens_the_module(course):
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    Exercise.objects.filter(pk=exercise.pk).update(archived_at=timezone.now())
    assert target_path(course=course, target=_target("exercise", exercise.uuid)) == (
        f"/courses/{course.slug}/")


def test_the_picker_reads_the_module_and_its_assessments_in_four_queries(course, django_assert_num_queries):
    with django_assert_num_queries(4):
        items = picker_items(course=course)

    kinds = [item.kind for item in items]
    assert kinds[:2] == ["module", "section"] and kinds.count("module") == 1
    assert kinds.count("exercise") == Exercise.objects.active().filter(
        module=course.module).count()
    assert all(item.points and item.points > 0 for item in items if item.kind == "exercise")


@pytest.fixture
def two_modules(course):
    """`course` runs Module 6 first, then Module 5."""
    CourseModule.objects.filter(course=course).update(order=1)
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=0)
    return course


def test_the_picker_offers_every_module_grouped_in_the_course_order(
        two_modules, django_assert_num_queries):
    with django_assert_num_queries(4):
        items = picker_items(course=two_modules)

    heads = [(item.title, item.module) for item in items if item.kind == "module"]
    six, five = Module.objects.get(slug="module-06"), Module.objects.get(slug="module-05")
    assert heads == [(f"6: {six.title}", "module-06"), (f"5: {five.title}", "module-05")]
    modules = [item.module for item in items]
    assert modules == sorted(modules, reverse=True)  # each module's items together
    six_exercises = {str(u) for u in six.exercises.active().values_list("uuid", flat=True)}
    assert six_exercises <= {item.uuid for item in items if item.kind == "exercise"}


def test_targets_in_any_module_of_the_course_open_there(two_modules):
    exercise = Exercise.objects.active().filter(module__slug="module-06").first()
    lab = Lab.objects.active().filter(module__slug="module-06").first()
    page = f"/courses/{two_modules.slug}/"
    assert target_path(course=two_modules, target=_target("exercise", exercise.uuid)) == (
        f"{page}modules/module-06/#exercise-{exercise.slug}")  # the module's own page
    assert target_path(course=two_modules, target=_target("lab", lab.uuid)) == (
        f"{page}labs/{lab.slug}/")


def test_a_target_in_a_module_the_course_does_not_run_opens_the_course_page(course):
    exercise = Exercise.objects.active().filter(module__slug="module-06").first()
    assert target_path(course=course, target=_target("exercise", exercise.uuid)) == (
        f"/courses/{course.slug}/")


def test_expired_nonces_are_forgotten():
    now = timezone.now()
    UsedNonce.objects.create(issuer="https://lms", nonce="old", expires_at=now - timedelta(1))
    UsedNonce.objects.create(issuer="https://lms", nonce="new", expires_at=now + timedelta(1))

    assert used_nonces_prune() == 1
    assert list(UsedNonce.objects.values_list("nonce", flat=True)) == ["new"]
