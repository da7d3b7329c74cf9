"""The permission matrix: every endpoint against every kind of caller.

Callers: nobody, alice (a student), irene (the instructor), the course's LMS key, its
read-only key, a key of another course and a revoked key. Alice is also checked against
bob's submissions and runs. A course that is not yours is a 404; a role that is not enough
is a 403; no or bad credentials are a 401; every refusal has the one error shape.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from api.keys import api_key_create, api_key_revoke
from api.models import ApiKey
from courses.models import Course, Part
from events.models import WebhookDelivery
from events.webhooks import webhook_subscribe
from grading.services import submission_create
from labs.services import lab_run_request
from tests.factories import predictions_made

CALLERS = ("anon", "alice", "irene", "lms", "readonly", "other_key", "revoked")


@dataclass
class World:
    course: Course
    alice: Any
    bob: Any
    irene: Any
    part: Part
    bob_submission: int
    bob_run: str
    clients: dict[str, APIClient]

    def url(self, tail: str) -> str:
        return f"/api/v1/courses/{self.course.slug}/{tail}"

    def webhook(self) -> int:
        return webhook_subscribe(course=self.course, url="http://127.0.0.1:9/hook",
                                 events=["submission.graded"]).pk

    def delivery(self) -> int:
        hook = self.webhook()
        return WebhookDelivery.objects.create(
            subscription_id=hook, event="submission.graded", payload={}, status="failed",
            next_attempt_at="2020-01-01T00:00:00Z",
        ).pk

    def spare_key(self) -> int:
        return api_key_create(course=self.course, name="spare", role="read_only",
                              created_by=self.irene).api_key.pk


@pytest.fixture
def world(settings, course, other_course, alice, bob, irene, numeric_part, client_for, key_client,
          lms_token, readonly_token, other_course_token) -> World:
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    revoked = api_key_create(course=course, name="old", role=ApiKey.Role.LMS, created_by=irene)
    api_key_revoke(api_key=revoked.api_key)
    from courses.models import Lab

    lab = Lab.objects.get(slug="word-vectors")
    for student in (alice, bob):
        predictions_made(student=student, course=course, lab_slug="word-vectors")
    submission = submission_create(student=bob, course=course, part=numeric_part, raw_answer="0.5")
    run = lab_run_request(lab=lab, course=course, requester=bob, params={})
    clients = {
        "anon": client_for(None), "alice": client_for(alice), "irene": client_for(irene),
        "lms": key_client(lms_token), "readonly": key_client(readonly_token),
        "other_key": key_client(other_course_token), "revoked": key_client(revoked.token),
    }
    return World(course=course, alice=alice, bob=bob, irene=irene, part=numeric_part,
                 bob_submission=submission.pk, bob_run=str(run.uuid), clients=clients)


Request = Callable[[World], tuple[str, str, Any]]  # -> (method, url, body)

READ = {"alice": 200, "irene": 200, "lms": 200, "readonly": 200, "other_key": 404}
STAFF_READ = {"alice": 403, "irene": 200, "lms": 200, "readonly": 200, "other_key": 404}


def manager_write(ok: int) -> dict[str, int]:
    return {"alice": 403, "irene": ok, "lms": ok, "readonly": 403, "other_key": 404}


def instructor_only(ok: int) -> dict[str, int]:
    return {"alice": 403, "irene": ok, "lms": 403, "readonly": 403, "other_key": 404}


MATRIX: dict[str, tuple[Request, dict[str, int]]] = {
    "course list": (lambda w: ("get", "/api/v1/courses/", None), {**READ, "other_key": 200}),
    "course": (lambda w: ("get", w.url(""), None), READ),
    "module": (lambda w: ("get", w.url("module/"), None), READ),
    "sections": (lambda w: ("get", w.url("sections/"), None), READ),
    "section": (lambda w: ("get", w.url("sections/word-vectors/"), None), READ),
    "exercises": (lambda w: ("get", w.url("exercises/"), None), READ),
    "exercise": (lambda w: ("get", w.url("exercises/apply-1-gradient-bound/"), None), READ),
    "roster read": (lambda w: ("get", w.url("roster/"), None), STAFF_READ),
    "roster put": (lambda w: ("put", w.url("roster/"), {"roster": []}), manager_write(200)),
    "api keys read": (lambda w: ("get", w.url("api-keys/"), None), instructor_only(200)),
    "api key create": (lambda w: ("post", w.url("api-keys/"), {"name": "x", "role": "lms"}),
                       instructor_only(201)),
    "api key revoke": (lambda w: ("delete", w.url(f"api-keys/{w.spare_key()}/"), None),
                       instructor_only(200)),
    "webhooks read": (lambda w: ("get", w.url("webhooks/"), None), STAFF_READ),
    "webhook create": (lambda w: ("post", w.url("webhooks/"),
                                  {"url": "http://127.0.0.1:9/h", "events": ["lab_run.finished"]}),
                       manager_write(201)),
    "webhook read": (lambda w: ("get", w.url(f"webhooks/{w.webhook()}/"), None), STAFF_READ),
    "webhook delete": (lambda w: ("delete", w.url(f"webhooks/{w.webhook()}/"), None), manager_write(204)),
    "deliveries": (lambda w: ("get", w.url("webhook-deliveries/?status=failed"), None), STAFF_READ),
    "delivery replay": (lambda w: ("post", w.url(f"webhook-deliveries/{w.delivery()}/replay/"), None),
                        manager_write(202)),
    "own submissions": (lambda w: ("get", w.url("submissions/"), None), READ),
    "bob's submissions": (lambda w: ("get", w.url(f"submissions/?student={w.bob.pk}"), None),
                          STAFF_READ),
    "bob's submission": (lambda w: ("get", w.url(f"submissions/{w.bob_submission}/"), None),
                         {**STAFF_READ, "alice": 404}),
    "submit for bob": (lambda w: ("post", w.url("submissions/"),
                                  {"part": w.part.pk, "answer": "0.1", "student": w.bob.pk}),
                       manager_write(201)),
    "submit own": (lambda w: ("post", w.url("submissions/"), {"part": w.part.pk, "answer": "0.2"}),
                   {"alice": 201, "irene": 400, "lms": 400, "readonly": 403, "other_key": 404}),
    "gradebook": (lambda w: ("get", w.url("gradebook/"), None), STAFF_READ),
    "gradebook csv": (lambda w: ("get", w.url("gradebook/?format=csv"), None), STAFF_READ),
    "bob's gradebook": (lambda w: ("get", w.url(f"gradebook/students/{w.bob.pk}/"), None), STAFF_READ),
    "own gradebook": (lambda w: ("get", w.url(f"gradebook/students/{w.alice.pk}/"), None), READ),
    "lab runs": (lambda w: ("get", w.url("lab-runs/"), None), READ),
    "bob's lab run": (lambda w: ("get", w.url(f"lab-runs/{w.bob_run}/"), None),
                      {**STAFF_READ, "alice": 404}),
    "run a lab for bob": (lambda w: ("post", w.url("lab-runs/"),
                                     {"lab": "word-vectors", "student": w.bob.pk}),
                          manager_write(202)),
    "accommodations": (lambda w: ("get", w.url("accommodations/"), None), STAFF_READ),
    "accommodation of bob": (lambda w: ("put", w.url(f"accommodations/{w.bob.pk}/"),
                                        {"time_factor": 1.5, "extra_attempts": 1}),
                             manager_write(200)),
    "run a lab": (lambda w: ("post", w.url("lab-runs/"), {"lab": "word-vectors"}),
                  {"alice": 202, "irene": 400, "lms": 400, "readonly": 403, "other_key": 404}),
}


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", list(MATRIX))
def test_each_caller_gets_exactly_the_access_its_role_allows(world: World, endpoint: str) -> None:
    make_request, expected = MATRIX[endpoint]
    expected = {"anon": 401, "revoked": 401, **expected}
    wrong = []
    for caller in CALLERS:
        method, url, body = make_request(world)
        response = getattr(world.clients[caller], method)(url, body, format="json")
        if response.status_code != expected[caller]:
            wrong.append(f"{caller}: {response.status_code} (expected {expected[caller]}) "
                         f"{getattr(response, 'content', b'')[:200]!r}")
        elif response.status_code >= 400 and response["Content-Type"].startswith("application/json"):
            assert set(response.json()) == {"code", "message", "fields"}, response.json()
    assert not wrong, "\n".join(wrong)


@pytest.mark.django_db
def test_a_students_list_of_submissions_holds_only_their_own(world: World) -> None:
    world.clients["alice"].post(world.url("submissions/"), {"part": world.part.pk, "answer": "1"},
                                format="json")
    rows = world.clients["alice"].get(world.url("submissions/")).json()["results"]
    assert rows and {row["student"] for row in rows} == {world.alice.pk}
    runs = world.clients["alice"].get(world.url("lab-runs/")).json()["results"]
    assert world.bob_run not in {run["id"] for run in runs}


@pytest.mark.django_db
def test_an_unknown_api_path_answers_404_in_the_error_shape(world: World) -> None:
    response = world.clients["alice"].get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": "No such API endpoint.", "fields": {}}


@pytest.mark.django_db
def test_wrong_method_and_media_type_answer_in_the_error_shape(world: World) -> None:
    client = world.clients["lms"]
    response = client.patch(world.url("roster/"), [], format="json")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
    response = client.put(world.url("roster/"), "external_id=x", content_type="text/plain")
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
