"""The Content page's Moodle XML upload: the report shown, the module folder offered as a zip."""

import io
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import EnrollmentFactory, UserFactory

BANK = (Path(__file__).parent / "fixtures" / "bank.xml").read_bytes()


@pytest.fixture
def url(course):
    return reverse("dashboard:content", kwargs={"course_slug": course.slug})


def _login(client, course, role):
    user = UserFactory(username=role)
    EnrollmentFactory(user=user, course=course, role=role)
    client.force_login(user)


@pytest.mark.django_db
def test_an_upload_shows_the_report_and_offers_the_module_as_a_zip(client, course, url):
    _login(client, course, "instructor")
    page = client.post(url, {"action": "import-moodle", "module": "module-07",
                             "questions": SimpleUploadedFile("bank.xml", BANK)})
    text = page.content.decode()
    assert page.status_code == 200
    assert "not imported: line 97, question 14 (gapselect) &#x27;Gaps&#x27;" in text
    assert "10 of 12 question(s) imported (4 with changes), 2 not imported" in text
    assert "module-07/exercises/area.toml" in text
    archive = page.context["imported_zip"]
    download = client.post(url, {"action": "download-import", "module": "module-07",
                                 "archive": archive})
    assert download["Content-Disposition"] == 'attachment; filename="module-07.zip"'
    names = zipfile.ZipFile(io.BytesIO(download.content)).namelist()
    assert "module-07/module.toml" in names and "module-07/exercises/area.toml" in names


@pytest.mark.django_db
def test_a_hostile_file_is_refused_with_its_reason(client, course, url):
    _login(client, course, "instructor")
    page = client.post(url, {"action": "import-moodle", "module": "module-07",
                             "questions": SimpleUploadedFile(
                                 "x.xml", b'<!DOCTYPE q [<!ENTITY a "b">]><quiz/>')})
    assert "Nothing imported: the file declares a DTD" in page.content.decode()
    assert "Download" not in page.content.decode().split("import-report")[-1]


@pytest.mark.django_db
def test_a_ta_cannot_import(client, course, url):
    _login(client, course, "ta")
    response = client.post(url, {"action": "import-moodle", "module": "m",
                                 "questions": SimpleUploadedFile("bank.xml", BANK)})
    assert response.status_code == 403


@pytest.mark.django_db
def test_a_gift_upload_is_read_as_gift(client, course, url):
    _login(client, course, "instructor")
    gift = (Path(__file__).parent / "fixtures" / "bank.gift").read_bytes()
    page = client.post(url, {"action": "import-moodle", "module": "module-08",
                             "questions": SimpleUploadedFile("bank.gift", gift)})
    assert "9 of 9 question(s) imported (2 with changes), 0 not imported" in page.content.decode()
