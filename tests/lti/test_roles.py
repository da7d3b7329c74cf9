"""LTI roles -> course roles, and the role a launch gives in the course."""

import pytest
from lti_tool.models import LtiUser

from courses.models import Enrollment
from lti.roles import course_role
from tests.lti.platform import (
    ADMINISTRATOR,
    CONTENT_DEVELOPER,
    INSTRUCTOR,
    LEARNER,
    TEACHING_ASSISTANT,
    LaunchSpec,
)


@pytest.mark.parametrize(("roles", "expected"), [
    ([LEARNER], "student"),
    (["Learner"], "student"),
    ([INSTRUCTOR], "instructor"),
    (["Instructor"], "instructor"),
    ([CONTENT_DEVELOPER], "instructor"),
    ([ADMINISTRATOR], "instructor"),
    ([TEACHING_ASSISTANT], "ta"),
    ([INSTRUCTOR, TEACHING_ASSISTANT], "ta"),
    (["http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"], "student"),
    (["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator"], "student"),
    (["http://purl.imsglobal.org/vocab/lis/v2/system/person#SysAdmin"], "student"),
    (["urn:lti:role:made-up"], "student"),
    ([], "student"),
])
def test_lti_roles_map_to_course_roles(roles, expected):
    assert course_role(roles) == expected


@pytest.mark.django_db(transaction=True)
def test_each_launch_enrols_with_the_role_the_platform_gives(platform):
    platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR]))
    platform.launch_over_http(LaunchSpec("ta-1", [INSTRUCTOR, TEACHING_ASSISTANT]))
    platform.launch_over_http(LaunchSpec("designer-1", [CONTENT_DEVELOPER]))
    platform.launch_over_http(LaunchSpec("guest-1", ["urn:lti:role:made-up"]))

    roles = {e.user.lti_users.get().sub: e.role for e in
             Enrollment.objects.select_related("user")}
    assert roles == {"teacher-1": "instructor", "ta-1": "ta", "designer-1": "instructor",
                     "guest-1": "student"}
    guest = LtiUser.objects.get(sub="guest-1").auth_user
    assert Enrollment.objects.get(user=guest).external_id == "guest-1"
