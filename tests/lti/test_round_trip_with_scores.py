"""The whole LTI round trip, each part real: the LMS (lti1p3platform and its service
endpoints on one HTTP server) launches a student into the exercise in Chromium, the student
answers it there, a real Celery worker sends the score, and the platform's score endpoint
receives it exactly once with the right values."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop runs in this thread

import time

import pytest
from lti_tool.models import Key
from playwright.sync_api import Page, expect

from courses.models import Exercise, Part
from grading.variant_assignment import variant_for
from lti.models import CourseLink
from lti.scores_models import ScoreDelivery
from tests.browser.conftest import browser_type_launch_args  # noqa: F401 (Debian's Chromium)
from tests.lti.platform import INSTRUCTOR, LEARNER, LaunchSpec, Platform
from tests.lti.platform_services import PlatformServices
from tests.workers import wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_student_answer_in_the_browser_reaches_the_lms_gradebook_once(
        page: Page, platform: Platform, celery_worker):
    keyset = Key.objects.all().as_jwks()
    services = PlatformServices(platform.server, client_id=platform.client_id,
                                jwks=lambda: keyset, context_id=LaunchSpec("x", []).context_id)
    platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR], name="Ingrid Teach"))
    course = CourseLink.objects.get().course
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    spec = LaunchSpec("student-7", [LEARNER], name="Sam Student", email="sam@uni.example",
                      resource_link_id="link-apply-1",
                      custom={"grader_target": f"exercise:{exercise.uuid}"})

    page.goto(platform.launch_url(spec))
    box_part = Part.objects.get(exercise=exercise, key="bound")
    student = course.enrollments.get(role="student").user
    params = variant_for(student=student, course=course, exercise=exercise).params
    box = page.locator(f"#part-{box_part.pk}")
    box.get_by_label("Your answer").fill(f"{params['sigma']}^{params['steps']}")
    box.get_by_role("button", name="Submit answer").click()
    expect(box.locator(".verdict")).to_contain_text("Correct")

    wait_for(lambda: len(services.scores) >= 1, timeout=60, interval=0.1)
    time.sleep(1.5)  # room for a duplicate to show up, had the tool sent one
    [score] = services.scores
    [line_item] = services.line_items.values()
    total = sum(p.points for p in exercise.parts.all())
    assert score.user_id == "student-7"
    assert line_item["resourceId"] == str(exercise.uuid)
    assert line_item["scoreMaximum"] == pytest.approx(total)
    assert score.body["scoreGiven"] == pytest.approx(box_part.points)
    assert score.body["scoreMaximum"] == pytest.approx(total)
    assert score.body["activityProgress"] in {"InProgress", "Completed"}
    assert score.body["gradingProgress"] in {"FullyGraded", "PendingManual"}
    delivery = ScoreDelivery.objects.get(student=student)
    assert delivery.state == "sent" and score.timestamp == delivery.decided_at
    assert services.token_requests == 1 and not services.assertion_errors
