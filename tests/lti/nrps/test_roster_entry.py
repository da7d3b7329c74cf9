"""A roster sync reads a member's roles exactly as a launch does (one parser, lti/roles.py)."""

import pytest

from lti.nrps.memberships import Member
from lti.nrps.roster import roster_entry
from lti.roles import course_role

MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"
INSTITUTION = "http://purl.imsglobal.org/vocab/lis/v2/institution/person"


def _member(*roles: str, active: bool = True) -> Member:
    return Member(user_id="sub-1", name="Ada Lovelace", email="ada@example.org", roles=roles,
                  active=active)


@pytest.mark.parametrize(("roles", "expected"), [
    ((f"{MEMBERSHIP}#Learner",), "student"),
    ((f"{MEMBERSHIP}#Instructor", f"{MEMBERSHIP}/Instructor#TeachingAssistant"), "ta"),
    ((f"{MEMBERSHIP}#Learner", f"{INSTITUTION}#Instructor"), "student"),
    (("Learner",), "student"),
    ((f"{MEMBERSHIP}#Mentor",), "student"),
])
def test_a_member_gets_the_role_a_launch_with_the_same_roles_gets(roles, expected):
    entry = roster_entry(_member(*roles))
    assert entry is not None and entry.role == expected == course_role(roles)


@pytest.mark.parametrize("roles", [(f"{MEMBERSHIP}#Instructor",), (f"{MEMBERSHIP}#Administrator",),
                                   (f"{MEMBERSHIP}#ContentDeveloper",)])
def test_instructors_are_left_out_of_a_sync(roles):
    assert course_role(roles) == "instructor" and roster_entry(_member(*roles)) is None


def test_an_inactive_member_is_left_out():
    assert roster_entry(_member(f"{MEMBERSHIP}#Learner", active=False)) is None
