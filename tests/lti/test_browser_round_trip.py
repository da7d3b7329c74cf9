"""The whole round trip in a real browser (Debian's Chromium via Playwright): the student
clicks the activity in the LMS (lti1p3platform on a real HTTP server), goes through the
tool's OIDC login (with pylti1p3's cookie check), the platform's authorisation and the signed
launch, arrives signed in on the exercise the resource link points to, answers it and sees the
graded feedback."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop runs in this thread

import pytest
from playwright.sync_api import Page, expect

from courses.models import Exercise, Part
from grading.models import Submission
from grading.variant_assignment import variant_for
from lti.models import CourseLink
from tests.browser.conftest import browser_type_launch_args  # noqa: F401 (Debian's Chromium)
from tests.lti.platform import INSTRUCTOR, LEARNER, LaunchSpec, Platform

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_student_launched_from_the_lms_answers_the_linked_exercise(page: Page,
                                                                    platform: Platform):
    platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR], name="Ingrid Teach"))
    course = CourseLink.objects.get().course
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    spec = LaunchSpec("student-7", [LEARNER], name="Sam Student", email="sam@uni.example",
                      resource_link_id="link-apply-1",
                      custom={"grader_target": f"exercise:{exercise.uuid}"})

    page.goto(platform.launch_url(spec))

    expect(page).to_have_url(f"{platform.tool_url}/courses/{course.slug}/"
                             "#exercise-apply-1-gradient-bound")
    box_part = Part.objects.get(exercise=exercise, key="bound")
    student = course.enrollments.get(role="student").user
    params = variant_for(student=student, course=course, exercise=exercise).params
    box = page.locator(f"#part-{box_part.pk}")
    expect(page.locator("#exercise-apply-1-gradient-bound")).to_contain_text(
        f"A gradient passes back through {params['steps']} RNN steps")
    box.get_by_label("Your answer").fill(f"{params['sigma']}^{params['steps']}")
    box.get_by_role("button", name="Submit answer").click()

    expect(box.locator(".verdict")).to_contain_text("Correct")
    submission = Submission.objects.get(student=student, part=box_part)
    assert (submission.outcome, student.first_name, student.email) == (
        "correct", "Sam", "sam@uni.example")
