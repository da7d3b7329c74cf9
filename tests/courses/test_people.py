"""People without the admin (issue 23 item 3): creating a course, a class from a CSV file
(checked whole, `file:line` problems, nothing applied on error), invite links with a role,
and role changes that never leave a course without an instructor."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission, User
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from courses.models import Course, CourseInvite, CourseModule, Enrollment, Module
from courses.people import (
    PeopleRefused,
    course_create_for,
    enrollment_active_change,
    enrollment_role_change,
    invite_accept,
    invite_create,
    invite_revoke,
    invite_sign_up,
    may_create_courses,
    people_page,
)
from courses.people_import import people_import
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db

CLASS = """username,email,first_name,last_name,role,group
alice,,,,,
,carol@example.org,Carol,Chen,student,A
dave,dave@example.org,Dave,Dee,TA,
"""


def _role(course: Course, username: str) -> str:
    return Enrollment.objects.get(course=course, user__username=username).role


# --- creating a course ---------------------------------------------------------------------

def test_an_instructor_creates_a_course_running_the_chosen_modules_in_order(irene, module_05):
    second = Module.objects.create(slug="module-77", number=77, title="Later")
    course = course_create_for(by=irene, title="NN, spring", slug="nn-spring",
                               modules=[module_05, second])
    assert course.module == module_05
    assert list(CourseModule.objects.filter(course=course).order_by("order")
                .values_list("module__slug", flat=True)) == ["module-05", "module-77"]
    assert _role(course, "irene") == Enrollment.Role.INSTRUCTOR


def test_a_student_may_not_create_courses_but_a_permission_holder_may(alice, module_05):
    assert not may_create_courses(alice)
    with pytest.raises(PermissionDenied):
        course_create_for(by=alice, title="Mine", slug="mine", modules=[module_05])
    newcomer = UserFactory(username="ops")
    newcomer.user_permissions.add(Permission.objects.get(codename="add_course"))
    newcomer = User.objects.get(pk=newcomer.pk)  # permissions are cached per object
    assert may_create_courses(newcomer)


@pytest.mark.parametrize(("slug", "reason"), [
    ("rnn-autumn", "exists already"), ("new", "page of the service"), ("Bad Slug", "short name"),
])
def test_a_taken_reserved_or_malformed_short_name_is_refused(irene, module_05, slug, reason):
    with pytest.raises(PeopleRefused, match=reason):
        course_create_for(by=irene, title="Again", slug=slug, modules=[module_05])


# --- a class from a CSV file ---------------------------------------------------------------

def test_a_csv_enrols_existing_people_finds_by_email_and_creates_the_others(course, irene,
                                                                           alice):
    course_alice = Enrollment.objects.get(course=course, user=alice)
    course_alice.is_active = False
    course_alice.save()
    carol = UserFactory(username="c.chen", email="Carol@Example.org")
    report = people_import(course=course, by=irene, text=CLASS, apply=True)
    assert report.problems == []
    assert report.created == ["dave"]
    assert sorted(report.enrolled) == ["c.chen", "dave"]
    assert report.updated == ["alice"]  # reactivated
    assert Enrollment.objects.get(course=course, user=carol).group == "A"
    assert _role(course, "dave") == Enrollment.Role.TA
    assert not User.objects.get(username="dave").has_usable_password()
    assert Enrollment.objects.get(course=course, user=alice).is_active


def test_a_preview_stores_nothing(course, irene):
    report = people_import(course=course, by=irene, text=CLASS, apply=False)
    assert report.problems == [] and not report.applied
    assert report.created == ["alice", "carol", "dave"]  # nobody exists yet
    assert not User.objects.filter(username="dave").exists()
    assert Enrollment.objects.filter(course=course).count() == 1


def test_every_problem_is_reported_by_line_and_nothing_is_applied(course, irene):
    text = ("username,email,role\n"
            "erin,erin@example.org,student\n"
            ",not-an-email,\n"
            "frank,,professor\n"
            "erin,,\n"
            "irene,,student\n")
    report = people_import(course=course, by=irene, text=text, apply=True,
                           filename="class.csv")
    assert report.problems == [
        "class.csv:3: 'not-an-email' is not an e-mail address",
        "class.csv:4: unknown role 'professor' (student, ta or instructor)",
        "class.csv:5: 'erin' is also on line 2",
    ]
    assert not report.applied
    assert not User.objects.filter(username="erin").exists()


def test_own_role_and_an_email_of_another_account_are_refused(course, irene):
    UserFactory(username="gina", email="gina@example.org")
    report = people_import(course=course, by=irene, apply=True, text=(
        "username,email,role\nirene,,student\nnewgina,gina@example.org,\n"))
    assert report.problems == [
        "people.csv:2: you cannot change your own role",
        "people.csv:3: the e-mail 'gina@example.org' belongs to the account 'gina'; use that "
        "username",
    ]


def test_a_header_without_username_or_email_is_refused(course, irene):
    report = people_import(course=course, by=irene, text="name,role\nAl,student\n", apply=True)
    assert report.problems[0].startswith("people.csv:1: the header needs")


def test_only_instructors_upload(course, alice):
    with pytest.raises(PermissionDenied):
        people_import(course=course, by=alice, text=CLASS, apply=True)


# --- one member ----------------------------------------------------------------------------

def test_roles_change_but_the_last_instructor_stays(course, irene, alice):
    member = Enrollment.objects.get(course=course, user=alice)
    enrollment_role_change(course=course, by=irene, enrollment_id=member.pk, role="ta")
    assert _role(course, "alice") == "ta"
    own = Enrollment.objects.get(course=course, user=irene)
    with pytest.raises(PeopleRefused, match="at least one instructor"):
        enrollment_role_change(course=course, by=irene, enrollment_id=own.pk, role="student")
    with pytest.raises(PeopleRefused, match="at least one instructor"):
        enrollment_active_change(course=course, by=irene, enrollment_id=own.pk, active=False)
    enrollment_active_change(course=course, by=irene, enrollment_id=member.pk, active=False)
    assert not Enrollment.objects.get(pk=member.pk).is_active


def test_a_member_of_another_course_cannot_be_changed(course, other_course, irene):
    stranger = EnrollmentFactory(course=other_course, user=UserFactory(username="x"))
    with pytest.raises(PeopleRefused, match="No such member"):
        enrollment_role_change(course=course, by=irene, enrollment_id=stranger.pk, role="ta")


# --- invite links --------------------------------------------------------------------------

def test_an_invite_enrols_with_its_role_once_per_person(course, irene):
    link = invite_create(course=course, by=irene, role="ta", max_uses=2)
    newcomer = UserFactory(username="hal")
    assert invite_accept(token=link.token, user=newcomer).role == "ta"
    invite_accept(token=link.token, user=newcomer)  # again: nothing more used
    assert CourseInvite.objects.get(pk=link.pk).uses == 1


def test_an_instructor_keeps_their_role_and_a_student_link_never_makes_one(course, irene):
    link = invite_create(course=course, by=irene, role="student")
    assert invite_accept(token=link.token, user=irene).role == "instructor"
    with pytest.raises(PeopleRefused, match="students or TAs"):
        invite_create(course=course, by=irene, role="instructor")


def test_an_ended_enrolment_is_not_let_back_in_by_a_link(course, irene, alice):
    Enrollment.objects.filter(course=course, user=alice).update(is_active=False)
    link = invite_create(course=course, by=irene, role="student")
    with pytest.raises(PeopleRefused, match="was ended"):
        invite_accept(token=link.token, user=alice)


@pytest.mark.parametrize("end", ["revoked", "expired", "used up"])
def test_an_ended_link_enrols_nobody(course, irene, end):
    link = invite_create(course=course, by=irene, role="student", max_uses=1)
    if end == "revoked":
        invite_revoke(course=course, by=irene, invite_id=link.pk)
    elif end == "expired":
        CourseInvite.objects.filter(pk=link.pk).update(
            expires_at=timezone.now() - timedelta(seconds=1))
    else:
        invite_accept(token=link.token, user=UserFactory(username="first"))
    with pytest.raises(PeopleRefused, match="has ended"):
        invite_accept(token=link.token, user=UserFactory(username="late"))


def test_a_new_account_through_a_link_is_enrolled_and_weak_passwords_are_refused(course,
                                                                                irene):
    link = invite_create(course=course, by=irene, role="student")
    with pytest.raises(PeopleRefused):
        invite_sign_up(token=link.token, username="ivy", email="ivy@example.org",
                       password="123")
    enrollment = invite_sign_up(token=link.token, username="ivy", email="ivy@example.org",
                                password="a long passphrase 47")
    assert enrollment.course == course and enrollment.role == "student"
    assert enrollment.user.check_password("a long passphrase 47")
    with pytest.raises(PeopleRefused, match="exists already"):
        invite_sign_up(token=link.token, username="IVY", email="other@example.org",
                       password="a long passphrase 47")


def test_the_people_page_reads_a_page_in_four_queries(course, irene, django_assert_num_queries):
    for i in range(30):
        EnrollmentFactory(course=course, user=UserFactory(username=f"s{i}"))
    invite_create(course=course, by=irene, role="student")
    with django_assert_num_queries(4):
        shown = people_page(course=course, search="s1")
        assert [m.user.username for m in shown.members][:2] == ["s1", "s10"]
    assert shown.counts == {"student": 30, "instructor": 1}


def test_a_name_made_from_an_email_skips_every_account_that_has_it(course, irene):
    UserFactory(username="carol")
    UserFactory(username="Carol2")
    report = people_import(course=course, by=irene, apply=True,
                           text="email\ncarol@uni.example\n")
    assert report.problems == []
    assert report.created == ["carol3"]
