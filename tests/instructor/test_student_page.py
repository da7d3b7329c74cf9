"""The dashboard's page of one student: shown for the course's students only."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_page_of_a_student_of_the_course_is_shown(course, irene, alice):
    staff = Client()
    staff.force_login(irene)
    assert staff.get(f"/courses/{course.slug}/dashboard/students/{alice.pk}/").status_code == 200


@pytest.mark.parametrize("who", ["tara", "irene", "oscar"])
def test_anyone_who_is_not_a_student_of_the_course_has_no_page(course, irene, tara, oscar, who):
    staff = Client()
    staff.force_login(irene)
    someone = {"tara": tara, "irene": irene, "oscar": oscar}[who]
    page = staff.get(f"/courses/{course.slug}/dashboard/students/{someone.pk}/")
    assert page.status_code == 404
