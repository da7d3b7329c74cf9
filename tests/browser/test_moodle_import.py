"""Issue 44 in a real browser: an instructor uploads a Moodle XML bank on the Content page,
reads the per-question report and downloads the module folder as a zip."""

import io
import os
import zipfile
from pathlib import Path

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import pytest

from tests.browser.conftest import sign_in
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.services
BANK = Path(__file__).parents[1] / "interchange" / "fixtures" / "bank.xml"


def test_instructor_uploads_a_moodle_bank_reads_the_report_and_downloads_the_module(
        page, live_server, course):
    user = UserFactory(username="prof")
    EnrollmentFactory(user=user, course=course, role="instructor")
    sign_in(page, live_server, "prof")
    page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/content/")
    page.get_by_label("Moodle XML file").set_input_files(str(BANK))
    page.get_by_label("Module folder").fill("module-07")
    page.get_by_role("button", name="Import").click()
    report = page.locator("#import-report")
    text = report.inner_text()
    assert "10 of 12 question(s) imported (4 with changes), 2 not imported" in text
    assert "not imported: line 91, question 13 (calculated) 'Evil formula'" in text
    assert "imported: line 75, question 11 (calculatedsimple) 'Hypotenuse'" in text
    report.get_by_text("module-07/exercises/area.toml").click()
    assert 'reference = "a*b"' in report.locator("details[open] pre").inner_text()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download module-07.zip").click()
    archive = zipfile.ZipFile(io.BytesIO(Path(download.value.path()).read_bytes()))
    assert "module-07/exercises/hypotenuse.toml" in archive.namelist()
