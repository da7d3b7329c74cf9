"""Course selectors: a user sees only the courses they are enrolled in, whatever their role."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.forms.models import model_to_dict

from courses.access import is_staff_role
from courses.models import Enrollment
from courses.selectors import course_list_for_user, course_students, member_enrollment, module_sections
from tests.factories import EnrollmentFactory

pytestmark = pytest.mark.django_db


def test_student_lists_only_their_own_course(alice, course, other_course):
    assert list(course_list_for_user(user=alice)) == [course]


def test_student_cannot_open_another_course(alice, other_course):
    assert member_enrollment(user=alice, course_slug=other_course.slug) is None


def test_an_anonymous_user_is_a_member_of_no_course(course):
    assert member_enrollment(user=AnonymousUser(), course_slug=course.slug) is None


def test_instructor_of_one_course_cannot_open_another(irene, other_course):
    assert member_enrollment(user=irene, course_slug=other_course.slug) is None


def test_deactivated_enrolment_hides_the_course(alice, course):
    Enrollment.objects.filter(user=alice).update(is_active=False)
    assert list(course_list_for_user(user=alice)) == []
    assert member_enrollment(user=alice, course_slug=course.slug) is None


def test_the_enrolment_read_by_hand_is_the_orms_with_its_course_and_module(
        alice, course, other_course, django_assert_num_queries):
    found = member_enrollment(user=alice, course_slug=course.slug)
    expected = Enrollment.objects.select_related("course__module").get(user=alice, course=course)
    assert found is not None and model_to_dict(found) == model_to_dict(expected)
    assert model_to_dict(found.course) == model_to_dict(expected.course)
    with django_assert_num_queries(0):  # the course and its module came with it
        assert (found.course.slug, found.course.module.title) == (course.slug, course.module.title)


def test_ta_enrolment_is_a_staff_role(course, alice):
    ta = EnrollmentFactory(course=course, role=Enrollment.Role.TA)
    assert is_staff_role(ta.role)
    assert not is_staff_role(Enrollment.objects.get(user=alice).role)


def test_module_sections_load_in_a_constant_number_of_queries(course, django_assert_num_queries):
    with django_assert_num_queries(4):
        sections = list(module_sections(course=course))
        for section in sections:
            list(section.figures.all()), list(section.labs.all()), list(section.exercises.all())
    assert len(sections) == 7


def test_course_students_are_the_active_students_of_one_group_or_all(course, alice, bob, irene):
    Enrollment.objects.filter(course=course, user=bob).update(group="B")
    assert {e.user for e in course_students(course=course)} == {alice, bob}
    assert [e.user for e in course_students(course=course, group="B")] == [bob]
    Enrollment.objects.filter(course=course, user=alice).update(is_active=False)
    assert [e.user for e in course_students(course=course)] == [bob]
