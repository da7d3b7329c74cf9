"""Resource-link launches over real HTTP from lti1p3platform: who is signed in, as what, into
which course, and where they land."""

import pytest
from django.contrib.auth.models import User
from lti_tool.models import LtiUser

from courses.models import Course, CourseModule, Enrollment, Exercise, Module
from lti.models import CourseLink
from tests.lti.platform import INSTRUCTOR, LEARNER, LaunchSpec, Platform

pytestmark = pytest.mark.django_db(transaction=True)


def _instructor_sets_up(platform: Platform) -> Course:
    _, response = platform.launch_over_http(
        LaunchSpec("teacher-1", [INSTRUCTOR], name="Ingrid Teach", email="ingrid@uni.example"))
    assert response.status_code == 302, response.text[:800]
    return CourseLink.objects.get().course


def test_instructor_first_launch_creates_the_course_on_module_5(platform):
    course = _instructor_sets_up(platform)

    assert course.module.slug == "module-05"
    assert course.title == "Deep Learning 101"
    teacher = LtiUser.objects.get(sub="teacher-1").auth_user
    assert Enrollment.objects.get(course=course, user=teacher).role == "instructor"
    assert (teacher.first_name, teacher.last_name, teacher.email) == (
        "Ingrid", "Teach", "ingrid@uni.example")
    assert not teacher.has_usable_password()


def test_student_launch_signs_in_and_opens_the_linked_exercise(platform, live_server):
    course = _instructor_sets_up(platform)
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    spec = LaunchSpec("student-7", [LEARNER], name="Sam Student", email="sam@uni.example",
                      resource_link_id="link-ex", custom={
                          "grader_target": f"exercise:{exercise.uuid}"})

    http, response = platform.launch_over_http(spec)

    assert response.status_code == 302
    assert response.headers["Location"] == (
        f"/courses/{course.slug}/#exercise-apply-1-gradient-bound")
    page = http.get(live_server.url + response.headers["Location"], timeout=10)
    assert page.status_code == 200
    assert 'id="exercise-apply-1-gradient-bound"' in page.text
    student = LtiUser.objects.get(sub="student-7").auth_user
    assert Enrollment.objects.get(course=course, user=student).role == "student"


def test_a_launch_opens_an_exercise_of_the_course_s_second_module(platform, live_server):
    course = _instructor_sets_up(platform)
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=1)
    exercise = Exercise.objects.active().filter(module__slug="module-06").first()
    spec = LaunchSpec("student-8", [LEARNER], name="Sue Student", resource_link_id="link-six",
                      custom={"grader_target": f"exercise:{exercise.uuid}"})

    http, response = platform.launch_over_http(spec)

    assert response.status_code == 302
    assert response.headers["Location"] == (
        f"/courses/{course.slug}/modules/module-06/#exercise-{exercise.slug}")
    assert http.get(live_server.url + response.headers["Location"], timeout=10).status_code == 200
    assert course.module.slug == "module-05"  # LTI_MODULE_SLUG stays the first module


def test_student_in_a_context_no_instructor_set_up_gets_a_clear_page(platform):
    _, response = platform.launch_over_http(LaunchSpec("student-1", [LEARNER]))

    assert response.status_code == 200
    assert "This course is not set up yet" in response.text
    assert not Course.objects.exists()


def test_name_and_email_claims_update_the_account(platform):
    platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR], name="Ingrid Teach",
                                         email="old@uni.example"))
    platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR], name="Ingrid Mentor",
                                         email="new@uni.example"))

    teacher = LtiUser.objects.get(sub="teacher-1").auth_user
    assert (teacher.last_name, teacher.email) == ("Mentor", "new@uni.example")
    assert User.objects.filter(lti_users__sub="teacher-1").count() == 1


def test_an_email_never_links_a_launch_to_an_existing_account(platform):
    victim = User.objects.create_user("victim", email="victim@uni.example", password="x-1234567")
    victim.is_staff = True
    victim.save()

    platform.launch_over_http(LaunchSpec("attacker", [INSTRUCTOR], name="Vic Tim",
                                         email="victim@uni.example"))

    attacker = LtiUser.objects.get(sub="attacker").auth_user
    assert attacker.pk != victim.pk
    assert not attacker.is_staff
    victim.refresh_from_db()
    assert victim.first_name == ""


def test_login_checks_cookies_first_and_offers_a_new_window(platform):
    import requests

    start = requests.get(platform.launch_url(LaunchSpec("student-1", [LEARNER])),
                         allow_redirects=False, timeout=10)
    page = requests.get(start.headers["Location"], timeout=10)

    assert page.status_code == 200
    assert "Open the tool in a new window." in page.text  # shown when cookies are blocked
    assert "lti1p3_new_window" in page.text


def test_instructor_launch_without_the_module_installed_gets_a_clear_page(platform, caplog):
    Module.objects.filter(slug="module-05").update(slug="module-05-archived")

    _, response = platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR]))

    assert response.status_code == 503
    assert "no module &#x27;module-05&#x27;" in response.text
    assert not CourseLink.objects.exists()
    assert not Course.objects.exists()
    assert "is not installed" in caplog.text
