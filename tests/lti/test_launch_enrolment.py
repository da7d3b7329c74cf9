"""A launch keeps what the roster (or the staff) set on an enrolment: its group, and whether
it is active. An inactive student who launches gets a clear page, stays inactive, and the
course's roster is asked for again (once in a while) so that the LMS can list them again."""

import pytest
from django.core.cache import cache
from lti_tool.models import LtiContext

from courses.models import Course, Enrollment
from courses.roster import RosterEntry, roster_sync
from lti.models import CourseLink
from tests.lti.platform import INSTRUCTOR, LEARNER, LaunchSpec, Platform

pytestmark = pytest.mark.django_db(transaction=True)


def _course(platform: Platform) -> Course:
    _, response = platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR]))
    assert response.status_code == 302, response.text[:500]
    return CourseLink.objects.get().course


def _student_launch(platform: Platform):
    _, response = platform.launch_over_http(LaunchSpec("student-1", [LEARNER], name="Sam S"))
    return response


def _roster(course: Course, *entries: RosterEntry) -> None:
    roster_sync(course=course, entries=list(entries), allow_mass_deactivation=True)


def test_a_launch_keeps_the_group_the_roster_set(platform: Platform):
    course = _course(platform)
    assert _student_launch(platform).status_code == 302
    _roster(course, RosterEntry(external_id="student-1", name="Sam S", email="", group="B2"))

    response = _student_launch(platform)

    assert response.status_code == 302
    enrollment = Enrollment.objects.get(course=course, external_id="student-1")
    assert (enrollment.group, enrollment.is_active, enrollment.role) == ("B2", True, "student")


def test_a_launch_does_not_reactivate_a_student_the_roster_left_out(platform: Platform):
    course = _course(platform)
    assert _student_launch(platform).status_code == 302
    _roster(course, RosterEntry(external_id="student-1", name="Sam S", email="", group="B2"))
    _roster(course, RosterEntry(external_id="student-2", name="Kim K", email=""))
    cache.delete(f"lti-roster-on-launch-{LtiContext.objects.get().pk}")

    response = _student_launch(platform)

    assert response.status_code == 403
    assert "Your place in this course is not active" in response.text
    enrollment = Enrollment.objects.get(course=course, external_id="student-1")
    assert (enrollment.is_active, enrollment.group) == (False, "B2")
    # The roster is asked for again, once per LTI_ROSTER_ON_LAUNCH_SECONDS.
    assert cache.get(f"lti-roster-on-launch-{LtiContext.objects.get().pk}") == 1


def test_a_launch_does_not_reactivate_a_student_the_staff_deactivated(platform: Platform):
    course = _course(platform)
    assert _student_launch(platform).status_code == 302
    Enrollment.objects.filter(course=course, role="student").update(is_active=False)

    response = _student_launch(platform)

    assert response.status_code == 403
    assert not Enrollment.objects.get(course=course, role="student").is_active


def test_the_roster_listing_a_student_again_reactivates_them(platform: Platform):
    course = _course(platform)
    assert _student_launch(platform).status_code == 302
    _roster(course, RosterEntry(external_id="student-2", name="Kim K", email=""))
    assert _student_launch(platform).status_code == 403

    _roster(course, RosterEntry(external_id="student-1", name="Sam S", email="", group="A1"))

    assert _student_launch(platform).status_code == 302
    enrollment = Enrollment.objects.get(course=course, external_id="student-1")
    assert (enrollment.is_active, enrollment.group) == (True, "A1")
