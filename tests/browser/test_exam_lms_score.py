"""The acceptance walk (issue 40): the instructor connects the course's git repository and
syncs a quiz with two pools in a real browser; a student with a 1.5x accommodation types its
answers, the browser is closed mid-way and a new one restores them, time runs
out and a real `celery worker --beat` closes and grades the attempt; the student then sees no
score (the quiz releases feedback on the instructor's word); the instructor releases it on the
team page, and the LMS (the test platform's HTTP endpoints) receives the score once, through the
outbox and the same worker; the student then sees it. No CSP violation."""

import os
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path
from typing import cast

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import timezone
from playwright.sync_api import Browser, expect

from courses.models import Course, Enrollment, Module
from courses.services import content_sync
from exams.models import Accommodation, Assessment, AssessmentScore, Attempt
from lti.scores_models import ScoreDelivery
from tests.browser.conftest import csp_watched, sign_in
from tests.browser.test_exam_attempt import _keys
from tests.courses.test_course_sync import _git
from tests.exams.conftest import QuizCourse, small_module_with_quiz
from tests.factories import UserFactory
from tests.lti.ags_setup import platform_link
from tests.lti.conftest import lms_server  # noqa: F401 - the LMS's HTTP server
from tests.workers import running_worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _course_before_the_quiz(tmp_path: Path) -> tuple[Course, User, User]:
    """The course of the quiz's module, synced before the quiz was written (no assessment
    yet): (the course, its student, its instructor)."""
    folder = small_module_with_quiz(tmp_path / "before")
    shutil.rmtree(folder / "assessments")
    content_sync(root=folder)
    course = Course.objects.create(slug="quiz-course", title="Quiz course",
                                   module=Module.objects.get(slug="exam-module"))
    student = cast(User, UserFactory(username="student"))
    instructor = cast(User, UserFactory(username="teacher"))
    Enrollment.objects.create(course=course, user=student, role=Enrollment.Role.STUDENT)
    Enrollment.objects.create(course=course, user=instructor, role=Enrollment.Role.INSTRUCTOR)
    return course, student, instructor


def _repository_with_the_quiz(tmp_path: Path) -> Path:
    """A git repository of the course: course.toml and the module with its quiz (two pools)."""
    root = tmp_path / "course-repo"
    small_module_with_quiz(root)
    (root / "course.toml").write_text('title = "Quiz course"\nmodules = ["exam-module"]\n')
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)  # noqa: S607
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "the quiz")
    return root


def test_after_release_the_lms_receives_the_score_of_an_attempt_the_server_closed(
        browser: Browser, live_server, lms_server, broker_url,  # noqa: F811
        tmp_path, monkeypatch, settings):
    from config.celery import app

    app.control.purge()
    cache.clear()
    settings.CONTENT_REPOSITORY_ALLOWED_SCHEMES = ["https", "file"]
    course, student, instructor = _course_before_the_quiz(tmp_path)
    repository = _repository_with_the_quiz(tmp_path)
    violations: list[str] = []

    # The instructor connects the course's repository and syncs: the quiz and its pools.
    staff = browser.new_context()
    violations += csp_watched(staff)
    team = staff.new_page()
    sign_in(team, live_server, "teacher")
    team.goto(f"{live_server.url}/courses/{course.slug}/dashboard/content/")
    team.get_by_label("Git URL").fill(f"file://{repository}")
    team.get_by_role("button", name="Connect").click()
    team.get_by_role("button", name="Sync", exact=True).first.click()
    expect(team.locator("#sync-result")).to_contain_text("Sync succeeded")
    staff.close()
    assessment = Assessment.objects.get(slug="quiz-1")
    assert len(assessment.zones) == 2  # two pools
    quiz_course = QuizCourse(course, assessment, student, instructor)

    assessment.feedback = Assessment.Feedback.ON_RELEASE
    assessment.save(update_fields=["feedback"])
    Accommodation.objects.create(course=quiz_course.course, student=quiz_course.student,
                                 time_factor=1.5)
    link = platform_link(lms_server, quiz_course.course)
    link.identity(quiz_course.student)
    base = f"{live_server.url}/courses/{quiz_course.course.slug}"

    context = browser.new_context()
    violations += csp_watched(context)
    page = context.new_page()
    sign_in(page, live_server, "student")
    page.goto(f"{base}/assessments/quiz-1/")
    page.get_by_role("button", name="Start the quiz").click()
    expect(page.get_by_text("This attempt ends at")).to_be_visible()
    attempt = Attempt.objects.get(student=quiz_course.student)
    assert (attempt.deadline_at - attempt.started_at).total_seconds() == 30 * 60
    (first, first_key), (second, second_key) = _keys(attempt)
    page.locator(f"[name='{first}']").press_sequentially(first_key, delay=30)
    expect(page.locator("[data-save-status]")).to_contain_text("Saved at")
    context.close()  # the browser is closed mid-way

    context = browser.new_context()
    violations += csp_watched(context)
    page = context.new_page()
    sign_in(page, live_server, "student")
    page.goto(f"{base}/attempts/{attempt.pk}/")
    expect(page.locator(f"[name='{first}']")).to_have_value(first_key)  # restored
    page.locator(f"[name='{second}']").press_sequentially(second_key, delay=30)
    expect(page.locator("[data-save-status]")).to_contain_text("Saved at")
    context.close()  # and never submitted

    # Time runs out (brought forward: the last seconds of the 30 minutes).
    Attempt.objects.filter(pk=attempt.pk).update(deadline_at=timezone.now() + timedelta(seconds=2))
    monkeypatch.setitem(os.environ, "EXAM_SWEEP_SECONDS", "1")
    with running_worker(tmp_path, beat=True):
        closed = wait_for(lambda: Attempt.objects.filter(pk=attempt.pk, closed_at__isnull=False)
                          .first(), timeout=60, interval=0.2)
        assert closed is not None and closed.closed_by == Attempt.ClosedBy.DEADLINE
        assert closed.score == pytest.approx(1.0)
        assert not AssessmentScore.objects.get(student=quiz_course.student).released

        context = browser.new_context()
        violations += csp_watched(context)
        page = context.new_page()
        sign_in(page, live_server, "student")
        page.goto(f"{base}/attempts/{attempt.pk}/")
        expect(page.get_by_text("This attempt is closed")).to_be_visible()
        expect(page.get_by_text("Score: 1")).to_have_count(0)  # not released yet
        assert link.platform.scores == [] and not ScoreDelivery.objects.exists()

        staff = browser.new_context()
        violations += csp_watched(staff)
        team = staff.new_page()
        sign_in(team, live_server, "teacher")
        team.goto(f"{base}/assessments/quiz-1/staff/")
        team.get_by_label("Show correctness, scores and feedback").check()
        team.get_by_role("button", name="Save the release").click()
        expect(team.get_by_text("feedback yes")).to_be_visible()

        received = wait_for(lambda: link.platform.scores or None, timeout=60, interval=0.2)
        assert received is not None
        [score] = received
        assert score.user_id == link.sub(quiz_course.student)
        assert score.body["scoreGiven"] == pytest.approx(100.0)
        assert score.body["scoreMaximum"] == pytest.approx(100.0)
        assert score.body["activityProgress"] == "Completed"
        [item] = link.platform.line_items.values()
        assert item["resourceId"] == str(assessment.uuid)
        wait_for(lambda: ScoreDelivery.objects.filter(state="sent").first(), timeout=30,
                 interval=0.2)

        page.reload()
        expect(page.get_by_text("Score: 1")).to_be_visible()  # released to the student too
        staff.close()
        context.close()
    assert len(link.platform.scores) == 1  # once
    assert violations == []
