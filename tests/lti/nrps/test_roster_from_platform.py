"""NRPS: the roster read from the platform's membership service, every page, through the
REST API's roster diff and its safety rules."""

import pytest
from django.core.cache import cache
from lti_tool.models import LtiUser

from courses.models import Enrollment
from courses.roster import RosterMassDeactivation
from lti.nrps.roster import roster_from_platform
from lti.nrps.tasks import roster_sync_task
from lti.scores_models import RosterSyncState
from tests.factories import EnrollmentFactory, UserFactory
from tests.lti.ags_setup import platform_link
from tests.lti.lms_server import LmsResponse
from tests.lti.platform_services import member

pytestmark = pytest.mark.django_db


@pytest.fixture
def link(lms_server, course):
    cache.clear()
    link = platform_link(lms_server, course)
    link.platform.members = [
        member("u1", "Ada Lovelace", "ada@uni.example"),
        member("u2", "Alan Turing", "alan@uni.example"),
        member("u3", "Grace Hopper", "grace@uni.example", roles=("TeachingAssistant",)),
        member("u4", "Irene Instructor", "irene@uni.example", roles=("Instructor",)),
        member("u5", "Gone Student", "gone@uni.example", status="Inactive"),
    ]
    return link


def test_every_page_is_read_and_learners_and_tas_are_enrolled_but_no_instructor(link, course):
    diff = roster_from_platform(context=link.context, course=course)

    assert sorted(diff.created) == ["u1", "u2", "u3"]
    assert len(link.platform.server.received("GET", "/contexts/course-1/memberships")) == 3
    roles = dict(Enrollment.objects.filter(course=course).values_list("external_id", "role"))
    assert roles == {"u1": "student", "u2": "student", "u3": "ta"}
    ada = Enrollment.objects.select_related("user").get(course=course, external_id="u1").user
    assert (ada.first_name, ada.last_name, ada.email) == ("Ada", "Lovelace", "ada@uni.example")
    # Their platform identities point at the accounts, so their scores can be sent.
    assert LtiUser.objects.get(registration=link.registration, sub="u1").auth_user == ada
    state = RosterSyncState.objects.get(context=link.context)
    assert state.error == "" and state.summary["created"] == 3


def test_a_member_with_the_email_of_another_courses_account_gets_a_new_account(
        link, course, other_course):
    elsewhere = UserFactory(username="ada-other", email="ada@uni.example")
    EnrollmentFactory(user=elsewhere, course=other_course)

    roster_from_platform(context=link.context, course=course)

    ada = Enrollment.objects.get(course=course, external_id="u1").user
    assert ada != elsewhere
    assert not Enrollment.objects.filter(course=course, user=elsewhere).exists()


def test_an_account_the_member_launched_with_is_adopted_not_duplicated(link, course):
    launched = UserFactory(username="ada-launched", email="")
    EnrollmentFactory(user=launched, course=course, external_id="")
    LtiUser.objects.create(registration=link.registration, sub="u1", auth_user=launched)

    roster_from_platform(context=link.context, course=course)

    assert Enrollment.objects.get(course=course, external_id="u1").user == launched
    assert Enrollment.objects.filter(course=course, user=launched).count() == 1


def test_a_roster_that_would_empty_the_class_is_refused_unless_confirmed(link, course):
    roster_from_platform(context=link.context, course=course)
    link.platform.members = link.platform.members[:1]

    with pytest.raises(RosterMassDeactivation):
        roster_from_platform(context=link.context, course=course)
    assert Enrollment.objects.filter(course=course, is_active=True).count() == 3
    assert "deactivate" in RosterSyncState.objects.get(context=link.context).error

    diff = roster_from_platform(context=link.context, course=course, allow_mass_deactivation=True)
    assert sorted(diff.deactivated) == ["u2", "u3"]


def test_the_periodic_task_reads_the_roster_and_records_a_platform_failure(link, course):
    assert roster_sync_task(link.context.pk).startswith("created 3")
    link.platform.server.route("GET", "/contexts/course-1/memberships",
                               lambda request: LmsResponse(500, {"error": "down"}))
    cache.clear()
    assert roster_sync_task(link.context.pk).startswith("failed")
    assert "500" in RosterSyncState.objects.get(context=link.context).error


def test_work_done_before_the_roster_linked_a_student_is_sent_once_linked(link, course, module_05):
    from courses.models import Part
    from grading.services import submission_create
    from lti.scores_models import ScoreDelivery

    launched = UserFactory(username="ada-hand", email="ada@uni.example")
    EnrollmentFactory(user=launched, course=course, external_id="")
    bound = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    submission_create(student=launched, course=course, part=bound, raw_answer="1")
    assert not ScoreDelivery.objects.exists()  # no identity on the platform yet

    roster_from_platform(context=link.context, course=course)  # adopted by email, then linked

    assert ScoreDelivery.objects.get().student == launched
