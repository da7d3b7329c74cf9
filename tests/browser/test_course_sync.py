"""Issue 23.2 in a real browser: an instructor connects a local git repository, syncs, sees an
error as `file:line`, fixes it with a commit and syncs again to see what changed."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import pytest

from tests.browser.conftest import sign_in
from tests.courses.test_course_sync import _git, repo  # noqa: F401 - the repository fixture
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.services


def test_instructor_syncs_sees_file_line_fixes_and_syncs_again(page, live_server, course, repo,  # noqa: F811
                                                               settings):
    settings.CONTENT_REPOSITORY_ALLOWED_SCHEMES = ["https", "file"]
    user = UserFactory(username="prof")
    EnrollmentFactory(user=user, course=course, role="instructor")
    exercise = next((repo / "module-05" / "exercises").glob("*.toml"))
    text = exercise.read_text()
    exercise.write_text(text.replace("title = ", "title = [", 1))
    _git(repo, "commit", "-qam", "broken")

    sign_in(page, live_server, "prof")
    page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/content/")
    page.get_by_label("Git URL").fill(f"file://{repo}")
    page.get_by_role("button", name="Connect").click()
    page.get_by_role("button", name="Sync", exact=True).first.click()
    result = page.locator("#sync-result")
    assert "failed: nothing was applied" in result.inner_text()
    assert f"module-05/exercises/{exercise.name}:" in result.inner_text()

    exercise.write_text(text.replace('title = "', 'title = "Renamed: ', 1))
    _git(repo, "commit", "-qam", "fixed")
    page.get_by_role("button", name="Sync", exact=True).first.click()
    assert "Sync succeeded" in result.inner_text()
    assert "updated" in page.locator("ul.changes").inner_text()
