"""Personal data outside the database tables: staff searches are logged redacted, the admin
log forgets an erased student's name and the staff's free text about them, and backups and
exports are readable by their owner only (0600 files, 0700 backup folders)."""

import os
import stat
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command

from courses.models import Enrollment
from privacy.erasure import personal_data_erase
from tests.ops.conftest import LogCapture

pytestmark = pytest.mark.django_db

NAME, EMAIL = "marigold", "marigold.vanterpool@uni.example"


@pytest.fixture
def marigold(course):
    user = User.objects.create_user(username=NAME, email=EMAIL, first_name="Marigold")
    Enrollment.objects.create(user=user, course=course, role=Enrollment.Role.STUDENT)
    return user


def test_a_staff_search_is_logged_without_its_terms(client, irene, course, marigold) -> None:
    import logging

    capture = LogCapture()
    logging.getLogger().addHandler(capture.handler)
    try:
        client.force_login(irene)
        for term in (NAME, EMAIL):
            response = client.get(f"/courses/{course.slug}/dashboard/progress/", {"q": term})
            assert response.status_code == 200
    finally:
        logging.getLogger().removeHandler(capture.handler)
    assert "progress" in capture.text  # the requests were logged
    assert NAME not in capture.text and "vanterpool" not in capture.text.lower()


def test_erasure_removes_the_student_from_the_admin_log(marigold, irene, course) -> None:
    LogEntry.objects.log_action(
        user_id=irene.pk, content_type_id=ContentType.objects.get_for_model(User).pk,
        object_id=str(marigold.pk), object_repr=NAME, action_flag=CHANGE,
        change_message="Marigold asked by e-mail (marigold.vanterpool@uni.example) for a reset")
    enrolment = Enrollment.objects.get(user=marigold, course=course)
    LogEntry.objects.log_action(
        user_id=irene.pk, content_type_id=ContentType.objects.get_for_model(Enrollment).pk,
        object_id=str(enrolment.pk), object_repr=f"{NAME} in {course.slug}", action_flag=CHANGE,
        change_message="moved marigold to group B")
    record = personal_data_erase(user=marigold, reason="request 2026-118")
    for entry in LogEntry.objects.all():
        text = f"{entry.object_repr} {entry.change_message}".lower()
        assert NAME not in text and "vanterpool" not in text, text
    assert LogEntry.objects.filter(object_repr__contains=record.pseudonym).count() == 2


@pytest.mark.django_db(transaction=True)
def test_backups_and_exports_are_readable_by_their_owner_only(marigold, tmp_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask: world-readable unless the code says otherwise
    try:
        call_command("backup_database", output=str(tmp_path / "backup"), stdout=StringIO())
        out = StringIO()
        call_command("student_export", "--user", NAME, "--output", str(tmp_path / "exports"),
                     stdout=out)
    finally:
        os.umask(old)
    backup = tmp_path / "backup"
    assert stat.S_IMODE(backup.stat().st_mode) == 0o700
    files = [path for path in backup.rglob("*") if path.is_file()]
    assert files and all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in files)
    exported = [Path(line) for line in out.getvalue().split()]
    assert len(exported) == 2 and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in exported)
