"""A data request for one student, end to end: everything the service holds about them is
exported, then erased so that no name, e-mail, external id or answer text of theirs remains
in any table, export or log, while the class statistics still add up."""

import json
import logging
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone
from lti_tool.models import LtiContext, LtiDeployment, LtiRegistration, LtiUser
from rest_framework.test import APIClient

from api.keys import api_key_create
from courses.models import Enrollment, Lab, Part
from courses.roster import RosterEntry, roster_sync
from events.models import WebhookDelivery
from events.webhooks import webhook_subscribe
from grading.deadlines import deadline_set, extension_set
from grading.gradebook import gradebook
from grading.models import Submission
from grading.overrides import grade_override_create
from grading.reviews import review_create
from grading.services import submission_create
from labs.predictions import lab_run_execute_and_grade
from labs.services import lab_run_request
from lti.models import CourseLink
from lti.scores_models import ScoreDelivery
from privacy.erasure import ErasureRefused, personal_data_erase
from privacy.export import personal_data_export
from privacy.models import ErasureRecord

pytestmark = pytest.mark.django_db

FIRST, LAST = "Marigold", "Vanterpool"
EMAIL = "marigold.vanterpool@uni.example"
EXTERNAL = "EXT-7731-MVP"
USERNAME = "mvanterpool-lms"
TEXT_ANSWER = ("The zebrafish bottleneck: seq2seq squeezes the whole sentence into one fixed "
               "vector, and attention lets the decoder look back at every encoder state.")
NUMBER_ANSWER = "0.7777713"
MARKERS = (FIRST, LAST, EMAIL, EXTERNAL, USERNAME, "zebrafish", NUMBER_ANSWER)


def _every_stored_value() -> list[str]:
    """Every value in every column of every table, as text."""
    values: list[str] = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f'SELECT * FROM "{table}"')  # noqa: S608 (table names from the schema)
            values.extend(f"{table}: {value}" for row in cursor.fetchall() for value in row
                          if value is not None)
    return values


def _marked(texts: list[str]) -> list[str]:
    return [text for text in texts if any(marker in text for marker in MARKERS)]


@pytest.fixture
def student_with_history(settings, course, irene, bob, django_capture_on_commit_callbacks, caplog):
    """A student known to the service in every way it records people: enrolled by the LMS,
    answers (numeric, text, a prediction), a review and an override of their work, an
    extension, lab runs, webhook events and an LMS request replayable by Idempotency-Key."""
    caplog.set_level(logging.DEBUG)
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    webhook_subscribe(course=course, url="http://127.0.0.1:9/hook",
                      events=["submission.graded", "lab_run.finished"])
    roster_sync(course=course, entries=[RosterEntry(external_id=EXTERNAL, name=f"{FIRST} {LAST}",
                                                    email=EMAIL)])
    student = User.objects.get(enrollments__external_id=EXTERNAL)
    User.objects.filter(pk=student.pk).update(username=USERNAME)
    student.refresh_from_db()
    _lms_identity(course, student)  # so that grade passback keeps scores for the LMS too
    bound = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    extend = Part.objects.get(exercise__slug="extend-bottleneck")
    shape = Part.objects.get(exercise__slug="predict-alignment-shape", key="shape")
    submission_create(student=student, course=course, part=bound, raw_answer=NUMBER_ANSWER)
    text = submission_create(student=student, course=course, part=extend, raw_answer=TEXT_ANSWER)
    review_create(course=course, submission_id=text.pk, reviewer=irene, points=1.0,
                  comment=f"Well argued, {FIRST}: the zebrafish example is apt.")
    grade_override_create(course=course, student_id=student.pk, part_id=bound.pk, points=0.5,
                          reason=f"{FIRST} {LAST} was ill ({EMAIL})", by=irene)
    deadline_set(course=course, exercise_id=bound.exercise_id,
                 due_at=timezone.now() + timedelta(days=1), by=irene)
    extension_set(course=course, exercise_id=bound.exercise_id, student_id=student.pk,
                  due_at=timezone.now() + timedelta(days=3), reason=f"{LAST}'s note", by=irene)
    with django_capture_on_commit_callbacks():
        prediction = submission_create(student=student, course=course, part=shape,
                                       raw_answer="diagonal-with-crossing")
    run = prediction.lab_runs.get()
    lab_run_execute_and_grade(run_id=run.pk)
    lab_run_request(lab=Lab.objects.get(slug="rnn"), course=course, requester=student, params={})
    token = api_key_create(course=course, name="LMS", role="lms", created_by=irene).token
    lms = APIClient()
    lms.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    other_part = Part.objects.get(exercise__slug="apply-2-sequential-steps", key="rnn_steps")
    posted = lms.post(f"/api/v1/courses/{course.slug}/submissions/",
                      {"part": other_part.pk, "answer": NUMBER_ANSWER, "student": student.pk},
                      format="json", HTTP_IDEMPOTENCY_KEY="lms-retry-1")
    assert posted.status_code == 201
    submission_create(student=bob, course=course, part=bound, raw_answer="0.5")  # a classmate
    signed_out = APIClient()  # a failed sign-in under their username (django-axes records it)
    signed_out.post("/accounts/login/", {"username": USERNAME, "password": "wrong"},
                    format="multipart")
    assert ScoreDelivery.objects.filter(student=student).exists()
    ScoreDelivery.objects.filter(student=student).update(
        state="failed", last_error=f"400: {FIRST} {LAST} is not enrolled")
    return student


def _lms_identity(course, student) -> None:
    """The student's identity on an LMS linked to the course, named by the platform."""
    registration = LtiRegistration.objects.create(
        name="LMS", issuer="https://lms.example", client_id="tool", auth_url="https://lms.example/a",
        token_url="https://lms.example/t", keyset_url="https://lms.example/k")
    deployment = LtiDeployment.objects.create(registration=registration, deployment_id="d1")
    context = LtiContext.objects.create(deployment=deployment, id_on_platform="c1",
                                        lineitems_url="https://lms.example/c1/lineitems")
    CourseLink.objects.create(context=context, course=course)
    LtiUser.objects.create(registration=registration, sub="lms-sub-1", auth_user=student,
                           name=f"{FIRST} {LAST}", given_name=FIRST, family_name=LAST, email=EMAIL)


def test_the_export_holds_everything_about_the_student(student_with_history) -> None:
    text = json.dumps(personal_data_export(user=student_with_history), ensure_ascii=False)
    for marker in MARKERS:
        assert marker in text, marker
    data = personal_data_export(user=student_with_history)["data"]
    assert {"account", "enrolments", "submissions", "grade changes", "lab runs",
            "webhook events", "api requests", "sign-ins"} <= set(data)
    assert data["sign-ins"]
    assert len(data["submissions"]) == 4 and data["submissions"][1]["reviews"]
    assert len(data["lab runs"]) == 2


def test_after_erasure_no_trace_remains_in_any_table_or_export_and_statistics_add_up(
        student_with_history, course, caplog) -> None:
    assert _marked(_every_stored_value())  # the scan would see them
    before = gradebook(course=course)
    scores_before = {row.student_id: row.earned(before.columns) for row in before.rows}

    caplog.set_level(logging.DEBUG)
    record = personal_data_erase(user=student_with_history, reason="request 2026-117")

    assert _marked(_every_stored_value()) == []
    assert _marked([json.dumps(personal_data_export(user=student_with_history))]) == []
    written = [r.getMessage() for when in ("setup", "call") for r in caplog.get_records(when)]
    assert written and _marked(written) == []  # the service never logs these, before or after
    student = User.objects.get(pk=student_with_history.pk)
    assert student.username == record.pseudonym and not student.has_usable_password()
    assert not student.is_active
    after = gradebook(course=course)
    assert {row.student_id: row.earned(after.columns) for row in after.rows} == scores_before
    assert Submission.objects.filter(student=student).count() == 4
    assert Enrollment.objects.get(user=student, course=course).is_active
    assert WebhookDelivery.objects.filter(payload__data__student_username=record.pseudonym).exists()


def test_erasure_is_recorded_once_and_keeps_its_pseudonym_when_repeated(student_with_history,
                                                                         irene) -> None:
    first = personal_data_erase(user=student_with_history, requested_by=irene, reason="req 1")
    again = personal_data_erase(user=student_with_history, reason="req 1, again")
    assert again.pseudonym == first.pseudonym and ErasureRecord.objects.count() == 1
    assert first.requested_by == irene and first.changed["submissions"] >= 4


def test_an_administrator_cannot_erase_their_own_account(irene) -> None:
    with pytest.raises(ErasureRefused):
        personal_data_erase(user=irene, requested_by=irene)


def test_the_commands_export_and_refuse_to_erase_without_confirmation(
        student_with_history, tmp_path: Path) -> None:
    out = StringIO()
    call_command("student_export", "--user", EMAIL, "--output", str(tmp_path), stdout=out)
    json_path, html_path = (Path(line) for line in out.getvalue().split())
    assert EXTERNAL in json_path.read_text() and "zebrafish" in html_path.read_text()
    assert "<script" not in html_path.read_text()
    with pytest.raises(CommandError, match="--confirm"):
        call_command("student_erase", "--user", str(student_with_history.pk))
    assert ErasureRecord.objects.count() == 0
    out = StringIO()
    call_command("student_erase", "--user", USERNAME, "--confirm", stdout=out)
    assert ErasureRecord.objects.count() == 1
    assert _marked([out.getvalue()]) == []
    with pytest.raises(CommandError, match="No account"):
        call_command("student_erase", "--user", "nobody-at-all", "--confirm")
