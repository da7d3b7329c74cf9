"""Issue 37 item 7 in a real browser: an instructor creates a course with no module, sees that
it runs none yet, connects the team's repository by its local path (as on bin/run), syncs,
and reads in the report that the repository's module was added to the course."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import csp_watched, sign_in
from tests.courses.test_empty_course import _repository

pytestmark = pytest.mark.services


def test_an_empty_course_gets_its_module_from_its_first_sync_and_says_so(
        page: Page, live_server, course, irene, tmp_path, settings):
    settings.CONTENT_REPOSITORY_ALLOWED_SCHEMES = ["https", "file"]  # bin/run's local settings
    repo = _repository(tmp_path / "physics", "module-06")
    violations = csp_watched(page.context)
    sign_in(page, live_server, "irene")
    page.get_by_role("link", name="Create a course").click()
    page.get_by_label("Title").fill("Attention, spring")
    page.get_by_label("Short name (in the course's address)").fill("attention-spring")
    page.get_by_role("button", name="Create course").click()
    page.wait_for_url("**/courses/attention-spring/dashboard/content/")

    page.goto(f"{live_server.url}/courses/attention-spring/")
    expect(page.locator(".empty-course")).to_contain_text("This course runs no module yet.")

    page.goto(f"{live_server.url}/courses/attention-spring/dashboard/content/")
    page.get_by_label("Git URL").fill(str(repo))
    page.get_by_role("button", name="Connect").click()
    page.get_by_role("button", name="Sync", exact=True).first.click()
    expect(page.locator("#sync-result")).to_contain_text("Sync succeeded")
    expect(page.locator("ul.changes li").first).to_have_text(
        "added module module-06 to the course (place 1 of 1)")

    page.goto(f"{live_server.url}/courses/attention-spring/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Module 6: Self-attention")
    assert violations == []
