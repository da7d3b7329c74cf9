"""A resource link launch of an assessment that asks for Safe Exam Browser: refused with a
clear page (and nobody signed in) without SEB's Config Key hash of the launch URL or with a
wrong one, let through to the assessment's page with the right one; the course's staff and
assessments without SEB keys are not checked."""

from datetime import timedelta

import pytest
from django.utils import timezone
from lti_tool.models import LtiUser

from courses.models import Course
from exams.integrity import SEB_HEADER, seb_config_key_hash
from exams.models import Assessment
from lti.models import CourseLink
from tests.lti.platform import INSTRUCTOR, LEARNER, LaunchSpec, Platform

pytestmark = pytest.mark.django_db(transaction=True)

KEY = "c" * 64


def _course_with_exam(platform: Platform, seb_config_keys: list[str]) -> tuple[Course, Assessment]:
    _, response = platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR]))
    assert response.status_code == 302, response.text[:800]
    course = CourseLink.objects.get().course
    assert course.module is not None
    now = timezone.now()
    exam = Assessment.objects.create(
        module=course.module, slug="seb-exam", kind=Assessment.Kind.EXAM, title="SEB exam",
        opens_at=now - timedelta(hours=1), closes_at=now + timedelta(hours=1),
        seb_config_keys=seb_config_keys)
    return course, exam


def _spec(exam: Assessment, sub: str = "student-1", roles: tuple[str, ...] = (LEARNER,)
          ) -> LaunchSpec:
    return LaunchSpec(sub, list(roles), resource_link_id="link-exam",
                      custom={"grader_target": f"assessment:{exam.uuid}"})


def _seb(key: str):
    return lambda url: {SEB_HEADER: seb_config_key_hash(url, key)}


def test_a_launch_without_seb_s_hash_or_with_a_wrong_one_is_refused_with_a_clear_page(
        platform, live_server):
    course, exam = _course_with_exam(platform, [KEY])
    page = f"{live_server.url}/courses/{course.slug}/assessments/seb-exam/"
    for headers in (None, _seb("d" * 64), lambda url: {SEB_HEADER: "0" * 64}):
        http, response = platform.launch_over_http(_spec(exam), post_headers=headers)
        assert response.status_code == 403
        assert "Open this in Safe Exam Browser" in response.text
        assert "in Safe Exam Browser, with the settings file" in response.text
        signed_in = http.get(page, allow_redirects=False, timeout=10)
        assert signed_in.status_code == 302 and "login" in signed_in.headers["Location"]


def test_a_launch_with_seb_s_hash_of_the_launch_url_opens_the_assessment(platform, live_server):
    course, exam = _course_with_exam(platform, ["e" * 64, KEY])
    http, response = platform.launch_over_http(_spec(exam), post_headers=_seb(KEY))
    assert response.status_code == 302, response.text[:800]
    assert response.headers["Location"] == f"/courses/{course.slug}/assessments/seb-exam/"
    page = http.get(live_server.url + response.headers["Location"], timeout=10)
    assert page.status_code == 200 and "SEB exam" in page.text
    assert LtiUser.objects.filter(sub="student-1").exists()


def test_staff_and_assessments_without_seb_keys_are_not_checked(platform):
    course, exam = _course_with_exam(platform, [KEY])
    _, response = platform.launch_over_http(_spec(exam, "teacher-1", (INSTRUCTOR,)))
    assert response.headers["Location"] == f"/courses/{course.slug}/assessments/seb-exam/"
    Assessment.objects.filter(pk=exam.pk).update(seb_config_keys=[])
    _, response = platform.launch_over_http(_spec(exam))
    assert response.status_code == 302
    assert response.headers["Location"] == f"/courses/{course.slug}/assessments/seb-exam/"
