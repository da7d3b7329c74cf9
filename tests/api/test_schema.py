"""The OpenAPI schema, the offline docs page, throttling, and schemathesis against the live schema.

Schemathesis generates requests for every operation from the schema and sends them to the
WSGI application (on this test's database), as the course's LMS key and as a student with a
session: no answer may be a 5xx, and every answer must match the schema.
"""

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.test import APIClient
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from events.models import WebhookDelivery
from events.webhooks import webhook_subscribe
from grading.services import submission_create
from labs.services import lab_run_request
from tests.factories import predictions_made

pytestmark = pytest.mark.django_db


def test_the_schema_is_openapi_3_and_documents_the_error_shape(client) -> None:
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["components"]["schemas"]["Error"]["required"] == ["code", "message", "fields"]
    submissions = schema["paths"]["/api/v1/courses/{course_slug}/submissions/"]["post"]
    assert {"201", "400", "401", "403", "404", "409", "422", "429"} <= set(submissions["responses"])
    assert "apiKey" in schema["components"]["securitySchemes"]


def _descriptions(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("description", "summary") and isinstance(value, str):
                yield value
            else:
                yield from _descriptions(value)
    elif isinstance(node, list):
        for item in node:
            yield from _descriptions(item)


def test_the_schema_text_is_written_for_integrators_not_python_programmers(client) -> None:
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    leaks = [text for text in _descriptions(schema)
             if any(marker in text for marker in ("context", "False}", "True}", "self.",
                                                   "kwargs", "None)", "queryset"))]
    assert not leaks, leaks


def test_the_docs_page_loads_its_assets_from_this_server_only(client) -> None:
    page = client.get("/api/v1/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "swagger-ui" in html
    assert "cdn" not in html.lower() and "https://" not in html.replace("https://swagger.io", "")


def test_callers_are_throttled_per_key_and_per_user(monkeypatch, course, alice, client_for, key_client,
                                                    lms_token) -> None:
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES",
                        {"api_key": "3/min", "user": "2/min", "anon": "2/min"})
    url = f"/api/v1/courses/{course.slug}/"
    student = client_for(alice)
    assert [student.get(url).status_code for _ in range(3)] == [200, 200, 429]
    throttled = student.get(url)
    assert throttled.json()["code"] == "throttled" and "Retry-After" in throttled
    key = key_client(lms_token)  # a key has its own budget
    assert [key.get(url).status_code for _ in range(4)] == [200, 200, 200, 429]
    anonymous = client_for(None)
    assert [anonymous.get(url).status_code for _ in range(3)] == [401, 401, 401]


@pytest.fixture
def in_process_app() -> Iterator[WSGIHandler]:
    """The WSGI app, kept from closing the test's connection after each request (as Django's
    test client does)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def world(in_process_app, course, alice, bob, irene, numeric_part, settings) -> dict[str, Any]:
    """Real objects, so that generated requests reach them and not only 404s."""
    from api.keys import api_key_create
    from courses.models import Lab

    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    submission = submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1")
    predictions_made(student=alice, course=course, lab_slug="word-vectors")
    run = lab_run_request(lab=Lab.objects.get(slug="word-vectors"), course=course, requester=alice,
                          params={})
    hook = webhook_subscribe(course=course, url="http://127.0.0.1:9/", events=["submission.graded"])
    delivery = WebhookDelivery.objects.create(subscription=hook, event="submission.graded", payload={},
                                              status="failed", next_attempt_at=run.queued_at)
    lms = api_key_create(course=course, name="LMS", role="lms", created_by=irene)
    spare = api_key_create(course=course, name="spare", role="read_only", created_by=irene)
    student = APIClient()
    student.force_login(alice)
    return {
        "path": {"course_slug": course.slug, "submission_id": submission.pk, "run_id": str(run.uuid),
                 "webhook_id": hook.pk, "delivery_id": delivery.pk, "key_id": spare.api_key.pk,
                 "student_id": alice.pk, "exercise_slug": "apply-1-gradient-bound",
                 "section_slug": "word-vectors"},
        "lms_headers": {"Authorization": f"Bearer {lms.token}"},
        "student_headers": {"Cookie": f"sessionid={student.cookies['sessionid'].value}; csrftoken={'a' * 32}",
                            "X-CSRFToken": "a" * 32},
    }


# Loaded from the application itself at collection (generating the schema needs no database).
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", WSGIHandler())
CHECKS = [not_a_server_error, response_schema_conformance]
BOUNDED = settings(max_examples=10, deadline=None, derandomize=True,
                   suppress_health_check=list(HealthCheck))


def _call(case: Any, world: dict[str, Any], headers: dict[str, str]) -> None:
    if case.path_parameters:
        case.path_parameters = {name: world["path"].get(name, value)
                                for name, value in case.path_parameters.items()}
    case.headers = {**(case.headers or {}), **headers}
    response = case.call()
    case.validate_response(response, checks=CHECKS)


@pytest.mark.filterwarnings("ignore")
@schema.parametrize()
@BOUNDED
def test_no_generated_request_as_the_lms_gets_a_5xx_or_breaks_the_schema(case, world) -> None:
    _call(case, world, world["lms_headers"])


@pytest.mark.filterwarnings("ignore")
@schema.parametrize()
@BOUNDED
def test_no_generated_request_as_a_student_gets_a_5xx_or_breaks_the_schema(case, world) -> None:
    _call(case, world, world["student_headers"])
