"""Deadlines in a course of several modules (issue 37 item 8): the list groups the exercises
by module with the module's due date there, and one due date for a module asks which."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from courses.models import CourseModule, Exercise, Module
from grading.deadlines import deadline_list, deadline_set, deadline_set_module
from grading.models import Deadline
from grading.staff import StaffActionRefused

pytestmark = pytest.mark.django_db
DUE = datetime(2030, 12, 14, 17, 0, tzinfo=ZoneInfo("UTC"))


@pytest.fixture
def six(course):
    return CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                       order=1, due_at=DUE)


def test_the_list_is_module_by_module_with_the_module_s_due_date(course, irene, six,
                                                                 django_assert_num_queries):
    own = Exercise.objects.filter(module=six.module).order_by("order").first()
    deadline_set(course=course, exercise_id=own.pk, due_at=datetime(2030, 12, 1, tzinfo=DUE.tzinfo),
                 by=irene)
    with django_assert_num_queries(5):
        listed = deadline_list(course=course)
    assert [m.module.slug for m in listed.modules] == ["module-05", "module-06"]
    assert listed.several
    five, six_listed = listed.modules
    assert {e.exercise.module_id for e in five.exercises} == {course.module_id}
    assert all(e.due_at is None for e in five.exercises)
    first, *others = six_listed.exercises
    assert (first.exercise, first.due_at, first.from_module) == (own, own.deadlines.get().due_at,
                                                                 False)
    assert others and all(e.due_at == DUE and e.from_module for e in others)


def test_one_due_date_for_a_module_sets_that_module_only(course, irene, six):
    count = deadline_set_module(course=course, due_at=DUE, by=irene, module_id=six.module_id)
    assert count == Exercise.objects.active().filter(module=six.module).count()
    assert set(Deadline.objects.values_list("exercise__module_id", flat=True)) == {six.module_id}


def test_one_due_date_in_a_course_of_several_modules_asks_which(course, irene, six):
    with pytest.raises(StaffActionRefused, match="Choose the module"):
        deadline_set_module(course=course, due_at=DUE, by=irene)
    other = Module.objects.exclude(pk__in=[course.module_id, six.module_id]).first()
    if other is not None:
        with pytest.raises(StaffActionRefused, match="does not run"):
            deadline_set_module(course=course, due_at=DUE, by=irene, module_id=other.pk)
    assert not Deadline.objects.exists()
