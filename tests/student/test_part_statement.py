"""The one statement that answers, previews and predictions read first gives the instances
the ORM gives (every field, converted alike on SQLite and PostgreSQL), and finds nothing
where the ORM queries it replaces found nothing."""

import pytest
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from courses.models import CourseModule, Enrollment, Module, Part
from grading.models import DefaultVariant
from student.part_statement import enrolled_part_get
from tests.factories import CourseFactory

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def bound(module_05) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")


def test_the_instances_are_those_the_orm_reads_every_field_alike(alice, course, bound):
    with CaptureQueriesContext(connection) as queries:
        found = enrolled_part_get(user_id=alice.pk, course_slug=course.slug, part_id=bound.pk)
    assert len(queries) == 1
    orm = Enrollment.objects.select_related("course__module").get(user=alice, course=course)
    assert found.enrollment is not None and found.part is not None
    assert _fields(found.enrollment) == _fields(orm)
    assert _fields(found.enrollment.course) == _fields(orm.course)
    assert _fields(found.enrollment.course.module) == _fields(orm.course.module)
    assert _fields(found.part) == _fields(bound)  # spec (JSON), archived_at, ...
    assert _fields(found.part.exercise) == _fields(bound.exercise)  # uuid, parameters, ...
    assert isinstance(found.part.spec, dict) and found.part.exercise.uuid == bound.exercise.uuid
    assert model_to_dict(found.part.exercise) == model_to_dict(bound.exercise)
    assert not found.module_numbers
    with CaptureQueriesContext(connection) as queries:
        assert found.enrollment.course.module.pk == found.part.exercise.module_id
    assert len(queries) == 0  # the related objects came with the statement


def test_the_module_numbers_flag_is_the_students_in_this_course_only(
        alice, bob, course, other_course, bound):
    DefaultVariant.objects.create(course=other_course, student=alice)
    assert not enrolled_part_get(user_id=alice.pk, course_slug=course.slug,
                                 part_id=bound.pk).module_numbers
    DefaultVariant.objects.create(course=course, student=alice)
    assert enrolled_part_get(user_id=alice.pk, course_slug=course.slug,
                             part_id=bound.pk).module_numbers
    assert not enrolled_part_get(user_id=bob.pk, course_slug=course.slug,
                                 part_id=bound.pk).module_numbers


def test_the_dates_are_those_exercise_dates_reads_whatever_is_set(alice, course, other_course,
                                                                  bound):
    """The module's release and due dates in this course and the exercise's own deadline in
    this course (not another course's): what submission_create would otherwise read."""
    from datetime import timedelta

    from grading.answer_statements import exercise_dates
    from grading.models import Deadline

    def both():
        found = enrolled_part_get(user_id=alice.pk, course_slug=course.slug, part_id=bound.pk)
        read = exercise_dates(course_id=course.pk, module_id=bound.exercise.module_id,
                              exercise_id=bound.exercise_id)
        return found.dates, read

    found, read = both()
    assert found == read == (None, None, None)
    soon = timezone.now().replace(microsecond=123456) + timedelta(days=2)
    Deadline.objects.create(course=other_course, exercise=bound.exercise, due_at=soon,
                            updated_by=alice)
    assert both()[0] == (None, None, None)
    CourseModule.objects.filter(course=course, module_id=bound.exercise.module_id).update(
        release_at=soon - timedelta(days=9), due_at=soon + timedelta(days=1))
    Deadline.objects.create(course=course, exercise=bound.exercise, due_at=soon, updated_by=alice)
    found, read = both()
    assert found == read == (soon - timedelta(days=9), soon + timedelta(days=1), soon)
    assert all(value.tzinfo is not None for value in found)


def test_no_enrolment_for_a_stranger_an_inactive_member_or_another_course(
        alice, course, other_course, bound):
    assert enrolled_part_get(user_id=alice.pk, course_slug=other_course.slug,
                             part_id=bound.pk).enrollment is None
    assert enrolled_part_get(user_id=alice.pk, course_slug="no-such-course",
                             part_id=bound.pk).enrollment is None
    Enrollment.objects.filter(user=alice, course=course).update(is_active=False)
    assert enrolled_part_get(user_id=alice.pk, course_slug=course.slug,
                             part_id=bound.pk).enrollment is None


def test_no_part_when_archived_its_exercise_archived_missing_or_not_in_the_course(
        alice, course, bound):
    def part():
        return enrolled_part_get(user_id=alice.pk, course_slug=course.slug, part_id=bound.pk)

    assert part().part is not None
    Part.objects.filter(pk=bound.pk).update(archived_at=timezone.now())
    assert part().part is None and part().enrollment is not None
    Part.objects.filter(pk=bound.pk).update(archived_at=None)
    bound.exercise.archived_at = timezone.now()
    bound.exercise.save(update_fields=["archived_at"])
    assert part().part is None
    bound.exercise.archived_at = None
    bound.exercise.save(update_fields=["archived_at"])
    assert enrolled_part_get(user_id=alice.pk, course_slug=course.slug,
                             part_id=bound.pk + 10_000).part is None
    # a course that runs another module only
    other_module = Module.objects.exclude(pk=bound.exercise.module_id).first() or \
        Module.objects.create(slug="m-other", number="6", title="Other")
    elsewhere = CourseFactory(module=other_module, slug="elsewhere")
    CourseModule.objects.filter(course=elsewhere).exclude(module=other_module).delete()
    Enrollment.objects.create(user=alice, course=elsewhere, role=Enrollment.Role.STUDENT)
    found = enrolled_part_get(user_id=alice.pk, course_slug="elsewhere", part_id=bound.pk)
    assert found.enrollment is not None and found.part is None


def test_the_part_history_is_the_students_answers_to_the_part_oldest_first(
        alice, bob, course, other_course, bound):
    from grading.models import Submission
    from student.part_statement import part_history

    mine = [Submission.objects.create(student=alice, course=course, part=bound, raw_answer=t)
            for t in ("1", "2", "3")]
    Submission.objects.create(student=bob, course=course, part=bound, raw_answer="x")
    Submission.objects.create(student=alice, course=other_course, part=bound, raw_answer="y")
    history = part_history(student_id=alice.pk, course_id=course.pk, part_id=bound.pk)
    orm = list(Submission.objects.filter(student=alice, course=course, part=bound)
               .order_by("created_at", "id"))
    assert [s.pk for s in history] == [s.pk for s in mine] == [s.pk for s in orm]
    assert [_fields(s) for s in history] == [_fields(s) for s in orm]
