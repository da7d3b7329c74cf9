"""Course roles are decided in one module, courses/access.py (issue 39, item 4): the
dashboard, the API, LTI, live mode, labs, grading and exams call it."""

import re
import tomllib
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404

from courses.access import (
    STAFF_ROLES,
    course_role_among,
    is_course_staff,
    is_staff_role,
    staff_enrollment_get,
)
from courses.models import Enrollment

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
#: The staff roles named together (a tuple, a set or a role__in list of TA and instructor):
#: a decision of who is staff, which only courses/access.py makes.
_STAFF_PAIR = re.compile(r"Role\.(TA|INSTRUCTOR)\s*,\s*[\w.]*Role\.(TA|INSTRUCTOR)")


def test_instructors_and_tas_are_staff_and_students_are_not() -> None:
    assert [is_staff_role(role) for role in Enrollment.Role] == [
        role in (Enrollment.Role.INSTRUCTOR, Enrollment.Role.TA) for role in Enrollment.Role]
    assert not is_staff_role(Enrollment.Role.STUDENT)
    assert set(STAFF_ROLES) == {Enrollment.Role.INSTRUCTOR, Enrollment.Role.TA}


def test_a_staff_enrolment_is_found_a_student_refused_and_a_stranger_not_shown(
        course, other_course, alice, tara, irene, django_assert_num_queries) -> None:
    with django_assert_num_queries(1):
        found = staff_enrollment_get(user=tara, course_slug=course.slug, refusal="Staff only.")
    assert (found.user, found.course, found.role) == (tara, course, Enrollment.Role.TA)
    assert staff_enrollment_get(user=irene, course_slug=course.slug, refusal="-").user == irene
    with pytest.raises(PermissionDenied, match=r"Staff only\."):
        staff_enrollment_get(user=alice, course_slug=course.slug, refusal="Staff only.")
    with pytest.raises(Http404):
        staff_enrollment_get(user=tara, course_slug=other_course.slug, refusal="-")


def test_course_staff_is_one_query_and_an_inactive_member_is_not_staff(
        course, other_course, alice, tara, django_assert_num_queries) -> None:
    with django_assert_num_queries(1):
        assert is_course_staff(user=tara, course=course)
    assert not is_course_staff(user=alice, course=course)
    assert not is_course_staff(user=tara, course=other_course)
    assert not is_course_staff(user=AnonymousUser(), course=course)
    Enrollment.objects.filter(user=tara).update(is_active=False)
    assert not is_course_staff(user=tara, course=course)


def test_a_role_among_those_asked_for_is_returned(course, alice, irene) -> None:
    assert course_role_among(user=irene, roles=STAFF_ROLES, course=course) == "instructor"
    assert course_role_among(user=irene, roles=(Enrollment.Role.TA,), course=course) is None
    assert course_role_among(user=alice, roles=STAFF_ROLES, course=course) is None


def test_no_module_but_the_access_module_decides_who_is_staff() -> None:
    apps = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "root_packages"]
    deciding = sorted(
        path.relative_to(ROOT).as_posix()
        for app in apps for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts and _STAFF_PAIR.search(path.read_text())
        and path != ROOT / "courses" / "access.py")
    assert deciding == [], "call courses.access (STAFF_ROLES, is_staff_role, ...) instead"
    assert _STAFF_PAIR.search("role__in=(Enrollment.Role.TA, Enrollment.Role.INSTRUCTOR)")
    assert _STAFF_PAIR.search((ROOT / "courses" / "access.py").read_text())
