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


def _course_page_with_the_tool(server, launch_url: str) -> str:
    """A course page on `server` that shows the activity in an iframe, as an LMS does."""
    from tests.lti.lms_server import LmsResponse

    body = (f'<!doctype html><title>LMS course</title><h1>Deep Learning 101</h1>'
            f'<iframe title="Module 5" src="{launch_url}" width="900" height="600"></iframe>')
    server.route("GET", "/course/page", lambda request: LmsResponse(200, body, "text/html"))
    return f"{server.url}/course/page"


def test_in_the_lms_iframe_blocked_cookies_lead_to_a_new_window_that_works(page: Page,
                                                                          platform: Platform):
    platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR]))
    course = CourseLink.objects.get().course
    spec = LaunchSpec("student-8", [LEARNER], name="Nell Window")
    lms_page = _course_page_with_the_tool(platform.server, platform.launch_url(spec))

    page.goto(lms_page)
    tool = page.frame_locator("iframe")
    new_window = tool.get_by_text("Open the tool in a new window.")
    expect(new_window).to_be_visible()  # framed (CSP names the LMS), cookies refused inside
    with page.expect_popup() as popup:
        new_window.click()

    expect(popup.value).to_have_url(f"{platform.tool_url}/courses/{course.slug}/")
    expect(popup.value.get_by_role("heading", name="Exercises")).to_be_visible()


def test_a_site_that_is_not_a_registered_platform_cannot_frame_the_tool(page: Page,
                                                                        platform: Platform):
    from tests.lti.lms_server import LmsServer

    stranger = LmsServer().start()
    try:
        framing = _course_page_with_the_tool(
            stranger, platform.launch_url(LaunchSpec("student-9", [LEARNER])))
        answered: list[str] = []
        page.on("response", lambda response: answered.append(
            response.headers.get("content-security-policy", "")) if "/lti/login/" in response.url
            else None)
        page.goto(framing)
        for _ in range(100):  # the frame is replaced by Chromium's error page when refused
            if len(page.frames) > 1 and page.frames[1].url.startswith("chrome-error://"):
                break
            page.wait_for_timeout(100)
        assert page.frames[1].url.startswith("chrome-error://"), page.frames[1].url
        assert answered and "frame-ancestors" in answered[0], answered  # the tool did answer
    finally:
        stranger.stop()
