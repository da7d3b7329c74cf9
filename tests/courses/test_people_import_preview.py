"""A CSV upload's preview says each person's role and group (issue 37): it listed only
"enrol carol", so a wrong role column went unnoticed until applied."""

import pytest

from courses.models import Enrollment
from courses.people_import import MemberChange, people_import
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_preview_gives_each_person_s_role_and_group_before_and_after(course, irene):
    bob = UserFactory(username="bob")
    EnrollmentFactory(course=course, user=bob, role=Enrollment.Role.STUDENT, group="A")
    report = people_import(course=course, by=irene, apply=False, text=(
        "username,email,role,group\n"
        "carol,carol@example.org,ta,Lab 2\n"
        "bob,,,B\n"))
    assert report.changes == [
        MemberChange(username="carol", role="ta", group="Lab 2", new_account=True),
        MemberChange(username="bob", role="student", group="B", before_role="student",
                     before_group="A"),
    ]
    assert [c.role_label for c in report.changes] == ["Teaching assistant", "Student"]
    assert not Enrollment.objects.filter(user__username="carol").exists()
