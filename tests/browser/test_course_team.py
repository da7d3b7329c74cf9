"""Issue 23's acceptance in a real browser: an instructor connects the course's repository (a
local git repository holding Modules 5 and 6), syncs it, sees an error reported as
`file:line`, fixes it with a commit, syncs again, previews a Module 6 exercise in two
variants, and a student of the same course then answers in Module 6."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from courses.models import CourseModule, Exercise, Part
from grading.models import Submission
from grading.variant_assignment import variant_for
from tests.browser.conftest import sign_in
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.services

CONTENT = Path(settings.CONTENT_ROOT)
GIT = ["git", "-c", "user.email=t@example.org", "-c", "user.name=t"]
BROKEN_LINE = 'type = "list"'


def _git(repo: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def team_repo(tmp_path: Path) -> Path:
    """The course team's repository: course.toml running Modules 5 and 6."""
    root = tmp_path / "course-team"
    for folder in ("module-05", "module-06"):
        shutil.copytree(CONTENT / folder, root / folder)
    (root / "course.toml").write_text(
        'title = "Neural networks"\nmodules = ["module-05", "module-06"]\n')
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)  # noqa: S607
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "Modules 5 and 6")
    return root


def _sync(page: Page) -> str:
    page.get_by_role("button", name="Sync", exact=True).first.click()
    return page.locator("#sync-result").inner_text()


def test_a_course_team_syncs_fixes_previews_and_a_student_answers_in_module_6(
        page: Page, browser: Browser, live_server, course, alice, team_repo, settings):
    settings.CONTENT_REPOSITORY_ALLOWED_SCHEMES = ["https", "file"]
    EnrollmentFactory(user=UserFactory(username="prof"), course=course, role="instructor")
    shapes = team_repo / "module-06" / "exercises" / "multi-head-shapes.toml"
    text = shapes.read_text()
    line = text.splitlines().index(BROKEN_LINE) + 1
    shapes.write_text(text.replace(BROKEN_LINE, 'type = "lisst"', 1))  # an unknown type
    _git(team_repo, "commit", "-qam", "a typo")

    # Connect and sync: the error names the file and line; nothing is applied.
    sign_in(page, live_server, "prof")
    page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/content/")
    page.get_by_label("Git URL").fill(f"file://{team_repo}")
    page.get_by_role("button", name="Connect").click()
    reported = _sync(page)
    assert "failed: nothing was applied" in reported
    assert f"module-06/exercises/multi-head-shapes.toml:{line}:" in reported
    assert list(CourseModule.objects.filter(course=course)
                .values_list("module__slug", flat=True)) == ["module-05"]

    # Fix it with a commit and sync again: the course now runs both modules.
    shapes.write_text(text)
    _git(team_repo, "commit", "-qam", "fix the title")
    assert "Sync succeeded" in _sync(page)
    assert list(CourseModule.objects.filter(course=course).order_by("order")
                .values_list("module__slug", flat=True)) == ["module-05", "module-06"]

    # Preview the Module 6 exercise in two variants: other numbers, the key of each.
    exercise = Exercise.objects.get(slug="multi-head-shapes", archived_at__isnull=True)
    page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/statistics/")
    page.locator(f"a.preview-link[href$='/exercises/{exercise.pk}/preview/']").first.click()
    expect(page.locator("#variant-heading")).to_have_text("Variant 0")
    first_params = page.locator(".variant-params").inner_text()
    first_keys = page.locator(".key-answer").all_inner_texts()
    page.locator("#next-variant").click()
    expect(page.locator("#variant-heading")).to_have_text("Variant 1")
    assert page.locator(".variant-params").inner_text() != first_params
    assert page.locator(".key-answer").all_inner_texts() != first_keys  # each variant's keys
    assert Submission.objects.count() == 0

    # A student of the same course opens Module 6 and answers there.
    part = Part.objects.select_related("exercise").get(exercise=exercise, key="head_shape")
    p = variant_for(student=alice, course=course, exercise=exercise).params
    context = browser.new_context()
    try:
        student_page = context.new_page()
        sign_in(student_page, live_server, "alice")
        student_page.get_by_role("link", name="Module 6: Self-attention").click()
        student_page.wait_for_url(f"**/courses/{course.slug}/modules/module-06/")
        box = student_page.locator(f"#part-{part.pk}")
        box.get_by_label("Your answer").fill(
            f"[{p['tokens']}, {int(p['d_model']) // int(p['h'])}]")
        box.get_by_role("button", name="Submit answer").click()
        expect(box.locator(".done")).to_contain_text("Solved (attempts used:")
    finally:
        context.close()
    assert Submission.objects.get(student=alice, part=part).outcome == "correct"
