"""Password links (issue 37 item 10): an instructor gets one for a member who has no password
(enrolled from a CSV file), never one that could take over an account with a password, an
operator's account or a person of a course the instructor does not teach."""

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import PermissionDenied
from django.utils.http import urlsafe_base64_decode

from courses.models import Enrollment
from courses.password_links import password_link_create, password_reset_users
from courses.people import PeopleRefused
from courses.people_import import people_import
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(course, irene):
    """Enrolled from a CSV file: an account without a password."""
    people_import(course=course, by=irene, apply=True,
                  text="username,email\ncarol,carol@example.org\n")
    return Enrollment.objects.get(course=course, user__username="carol")


def test_a_member_without_a_password_gets_a_signed_link_to_their_account(course, irene, carol):
    link = password_link_create(course=course, by=irene, enrollment_id=carol.pk)
    assert link.user == carol.user
    assert urlsafe_base64_decode(link.uidb64).decode() == str(carol.user.pk)
    assert default_token_generator.check_token(carol.user, link.token)
    assert not default_token_generator.check_token(carol.user, link.token[:-1] + "x")


def test_the_link_is_used_up_once_the_password_is_set(course, irene, carol):
    link = password_link_create(course=course, by=irene, enrollment_id=carol.pk)
    carol.user.set_password("a long passphrase 47")
    carol.user.save()
    assert not default_token_generator.check_token(carol.user, link.token)


def test_no_link_for_an_account_that_has_a_password(course, irene, alice):
    member = Enrollment.objects.get(course=course, user=alice)
    with pytest.raises(PeopleRefused, match="has a password already"):
        password_link_create(course=course, by=irene, enrollment_id=member.pk)


def test_no_link_for_an_operator_s_account(course, irene):
    operator = UserFactory(username="op", is_staff=True, password=None)
    operator.set_unusable_password()
    operator.save()
    member = EnrollmentFactory(course=course, user=operator)
    with pytest.raises(PeopleRefused, match="operator"):
        password_link_create(course=course, by=irene, enrollment_id=member.pk)


def test_no_link_for_a_person_also_in_a_course_the_instructor_does_not_teach(
        course, other_course, irene, carol):
    EnrollmentFactory(course=other_course, user=carol.user)
    with pytest.raises(PeopleRefused, match="course you do not teach"):
        password_link_create(course=course, by=irene, enrollment_id=carol.pk)
    EnrollmentFactory(course=other_course, user=irene, role=Enrollment.Role.INSTRUCTOR)
    assert password_link_create(course=course, by=irene, enrollment_id=carol.pk).user == \
        carol.user


def test_tas_get_no_link_and_another_course_s_instructor_finds_no_such_member(
        course, other_course, tara, oscar, carol):
    with pytest.raises(PermissionDenied):
        password_link_create(course=course, by=tara, enrollment_id=carol.pk)
    with pytest.raises(PermissionDenied):
        password_link_create(course=course, by=oscar, enrollment_id=carol.pk)
    with pytest.raises(PeopleRefused, match="No such member"):
        password_link_create(course=other_course, by=oscar, enrollment_id=carol.pk)


def test_a_reset_e_mail_reaches_accounts_with_or_without_a_password(carol, alice):
    assert list(password_reset_users(email="CAROL@example.org")) == [carol.user]
    assert list(password_reset_users(email="alice@example.org")) == [alice]
    assert list(password_reset_users(email="")) == []
