"""The progress matrix sorts names in natural order (issue 37): Student2 before Student10, in
the database (paging keeps the order), on SQLite and PostgreSQL."""

import pytest

from courses.models import Enrollment
from instructor.progress import class_progress
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def numbered(course):
    for n in (10, 2, 1, 21, 3):
        user = UserFactory(username=f"student{n}", first_name=f"Student{n}", last_name="")
        EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT,
                          group="B" if n % 2 else "A")
    EnrollmentFactory(user=UserFactory(username="anna", first_name="Anna", last_name=""),
                      course=course)
    return course


def _names(**kwargs):
    return [row.username for row in class_progress(**kwargs).rows]


def test_names_ending_in_numbers_sort_by_the_number(numbered):
    assert _names(course=numbered) == ["anna", "student1", "student2", "student3",
                                       "student10", "student21"]
    assert _names(course=numbered, descending=True) == [
        "student21", "student10", "student3", "student2", "student1", "anna"]


def test_a_page_of_the_matrix_keeps_the_natural_order(numbered):
    assert _names(course=numbered, per_page=2, page=2) == ["student2", "student3"]


def test_the_group_sort_orders_each_group_s_names_naturally(numbered):
    assert _names(course=numbered, sort="group") == [
        "anna", "student2", "student10", "student1", "student3", "student21"]
