"""Structured logs: one line per request and per task, with the request id (also returned to
the client and carried into the tasks a request queued, through a real worker), user and
course ids, and never answers' text, tokens, passwords, cookies or JWTs."""

import json
import logging

import pytest
import structlog
from django.test import Client
from rest_framework.test import APIClient

from api.keys import api_key_create
from api.models import ApiKey
from courses.models import Part
from labs.models import LabRun
from ops.logs import formatter
from ops.redaction import REDACTED, redact, scrub
from tests.factories import predictions_made
from tests.ops.conftest import worker_log_lines
from tests.workers import running_worker, wait_for

JWT = ("eyJhbGciOiJSUzI1NiIsImtpZCI6Imx0aSJ9.eyJzdWIiOiJhbGljZSIsIm5vbmNlIjoiNDI0MiJ9."
       "c2lnbmF0dXJlLW9mLXRoZS1sbXM")


def _lines_of(logs, request_id: str) -> list[dict]:
    return [line for line in logs.lines() if line.get("request_id") == request_id]


# --- redaction (no database) -----------------------------------------------------------------

def test_scrub_removes_bearer_tokens_api_keys_jwts_url_passwords_and_sensitive_parameters():
    text = scrub(f"Authorization: Bearer abcdefgh12345678 key grk_Zz9-xY_1 jwt {JWT} "
                 "broker redis://:hunter2@cache.internal:6379/0 "
                 "GET /p/?answer=0.85%5E40&id_token=abc&page=2 Cookie: sessionid=s3ss10n; csrftoken=c5rf")
    for secret in ("abcdefgh12345678", "Zz9-xY_1", "eyJhbGci", "hunter2", "0.85%5E40", "s3ss10n",
                   "c5rf", "id_token=abc"):
        assert secret not in text
    assert "page=2" in text and "redis://:" in text and "cache.internal" in text


def test_redact_replaces_sensitive_keys_at_any_depth_and_keeps_the_rest():
    event = redact({"user_id": 7, "request_id": "r-1", "task_id": "t-1",
                    "form": {"username": "alice", "password": "pw", "raw_answer": "0.5"},
                    "headers": [{"Authorization": "Bearer x", "X-Api-Key": "grk_1"}],
                    "csrf_token": "c", "session_key": "s", "lti_jwt": JWT, "answers": ["1"]})
    assert event["user_id"] == 7 and event["request_id"] == "r-1" and event["task_id"] == "t-1"
    assert event["form"] == {"username": "alice", "password": REDACTED, "raw_answer": REDACTED}
    assert event["headers"] == [{"Authorization": REDACTED, "X-Api-Key": REDACTED}]
    assert {event[key] for key in ("csrf_token", "session_key", "lti_jwt", "answers")} == {REDACTED}


def test_the_development_format_is_a_readable_line_not_json():
    record = logging.LogRecord("grading.services", logging.WARNING, __file__, 1,
                               "grader failed on submission %s", (42,), None)
    line = formatter("console").format(record)
    assert "grader failed on submission 42" in line and "warning" in line
    assert not line.lstrip().startswith("{")
    assert json.loads(formatter("json").format(record))["event"] == "grader failed on submission 42"


# --- requests ----------------------------------------------------------------------------------

def test_each_request_is_one_json_line_with_its_id_user_course_status_and_duration(
    client, alice, course, service_logs
):
    client.force_login(alice)
    response = client.get(f"/courses/{course.slug}/")
    assert response.status_code == 200
    request_id = response["X-Request-ID"]

    [line] = _lines_of(service_logs, request_id)
    assert line["event"] == "request_finished" and line["level"] == "info"
    assert (line["code"], line["user_id"], line["course"]) == (200, alice.pk, course.slug)
    assert line["request"] == f"GET /courses/{course.slug}/"
    assert line["duration_ms"] >= 0 and line["timestamp"].endswith("Z")


def test_a_4xx_is_logged_once(client, alice, course, service_logs):
    client.force_login(alice)
    response = client.get(f"/courses/{course.slug}/answers/999999/")
    assert response.status_code == 404

    lines = _lines_of(service_logs, response["X-Request-ID"])
    assert [(line["event"], line["code"], line["level"]) for line in lines] == [
        ("request_finished", 404, "warning")]
    assert not [line for line in service_logs.lines() if line.get("logger") == "django.request"]


def test_a_5xx_is_logged_once_with_its_traceback(db, client, service_logs, settings):
    settings.ROOT_URLCONF = "tests.ops.urls_failing"
    failing = Client(raise_request_exception=False).get("/broken/")
    unavailable = client.get("/health/ready/")  # no worker seen: a 503 without an exception
    assert (failing.status_code, unavailable.status_code) == (500, 503)

    lines = service_logs.lines()
    [failed] = [line for line in lines if line.get("request") == "GET /broken/"]
    [finished] = [line for line in lines if line.get("request") == "GET /health/ready/"]
    assert (failed["event"], failed["code"], failed["level"]) == ("request_failed", 500, "error")
    assert "RuntimeError: the view broke" in failed["exception"]
    assert (finished["event"], finished["code"]) == ("request_finished", 503)
    assert not [line for line in lines if line.get("logger") == "django.request"]


def test_an_api_request_line_names_its_key_but_never_the_token(course, irene, service_logs):
    issued = api_key_create(course=course, name="LMS", role=ApiKey.Role.LMS, created_by=irene)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {issued.token}")
    response = client.get(f"/api/v1/courses/{course.slug}/gradebook/")
    assert response.status_code == 200

    [line] = _lines_of(service_logs, response["X-Request-ID"])
    assert (line["api_key_id"], line["course"]) == (issued.api_key.pk, course.slug)
    assert issued.token not in service_logs.text


def test_logs_never_hold_answers_tokens_passwords_cookies_or_jwts(
    course, alice, irene, service_logs, empty_cache
):
    """Everything a request can carry goes through the service; the captured lines are
    then searched for each secret."""
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    answer, previewed, password = "zebra_4242 * 0.85^40", "okapi_9191", "pw-Quokka-5150"
    issued = api_key_create(course=course, name="LMS", role=ApiKey.Role.LMS, created_by=irene)

    Client().post("/accounts/login/", {"username": "alice", "password": password})
    Client().post("/admin/login/", {"username": "irene", "password": password})
    browser = Client()
    browser.force_login(alice)
    browser.post(f"/courses/{course.slug}/parts/{part.pk}/answer/", {"answer": answer})
    browser.get(f"/courses/{course.slug}/parts/{part.pk}/preview/", {"answer": previewed})
    browser.get(f"/courses/{course.slug}/", {"id_token": JWT, "token": "qs-token-77"})
    session_cookie = browser.cookies["sessionid"].value
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {issued.token}", HTTP_X_API_KEY=issued.token)
    api.post(f"/api/v1/courses/{course.slug}/submissions/",
             {"part": part.pk, "answer": answer, "student": alice.pk}, format="json")
    structlog.get_logger("tests").warning("lti launch", id_token=JWT, password=password,
                                          payload={"raw_answer": answer})
    logging.getLogger("tests").warning("connecting to postgres://grader:%s@db/grader", password)

    text = service_logs.text
    assert len(service_logs.lines()) >= 8
    for secret in (answer, "zebra_4242", previewed, password, issued.token, session_cookie,
                   JWT, "qs-token-77"):
        assert secret not in text, secret


# --- tasks -------------------------------------------------------------------------------------

@pytest.mark.services
def test_the_request_id_user_and_course_travel_into_the_task_the_request_queued(
    transactional_db, broker_url, course, alice, tmp_path
):
    from config.celery import app

    predictions_made(student=alice, course=course, lab_slug="vanishing-gradient")
    app.control.purge()
    with running_worker(tmp_path, concurrency=1) as worker:
        client = APIClient()
        client.force_login(alice)
        response = client.post(f"/api/v1/courses/{course.slug}/lab-runs/",
                               {"lab": "vanishing-gradient"}, format="json")
        assert response.status_code == 202, response.content
        request_id = response["X-Request-ID"]
        run = LabRun.objects.get()
        wait_for(lambda: LabRun.objects.filter(pk=run.pk, status="succeeded").exists())

        def task_lines() -> list[dict]:
            return [line for line in worker_log_lines(worker.log_path)
                    if line.get("task") == "labs.tasks.lab_run_task"]

        [line] = wait_for(task_lines, timeout=30)

    assert line["event"] == "task_succeeded" and line["duration_ms"] >= 0
    assert (line["request_id"], line["user_id"], line["course"]) == (request_id, alice.pk,
                                                                     course.slug)
    same_task = [other for other in worker_log_lines(worker.log_path)
                 if other.get("task_id") == line["task_id"]]
    assert same_task == [line]  # one line per task


def test_a_task_sent_by_name_carries_the_log_context_in_its_headers(dead_broker) -> None:
    from celery.signals import before_task_publish

    from core.queueing import task_send

    seen: list[dict] = []

    def keep(headers: dict, **_: object) -> None:
        seen.append(dict(headers))

    before_task_publish.connect(keep, weak=False)
    try:
        with structlog.contextvars.bound_contextvars(request_id="req-1", user_id=5, course="c"):
            task_send("labs.tasks.lab_run_task", 1)  # the broker is down: the send fails after
    finally:
        before_task_publish.disconnect(keep)
    assert seen and seen[0]["__django_structlog__"] == {"request_id": "req-1", "user_id": 5,
                                                        "course": "c"}
