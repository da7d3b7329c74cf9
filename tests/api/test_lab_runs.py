"""Lab runs through the API: 202 with a Location, then status, progress and result."""

import pytest

from api.models import IdempotencyRecord
from labs.models import LabRun
from labs.services import lab_run_execute
from tests.factories import predictions_made
from tests.workers import wait_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _alice_has_predicted(course, alice) -> None:
    predictions_made(student=alice, course=course, lab_slug="word-vectors")


def url(course, tail: str = "") -> str:
    return f"/api/v1/courses/{course.slug}/lab-runs/{tail}"


def test_a_request_is_accepted_with_a_location_that_reports_the_result(course, alice, client_for):
    client = client_for(alice)
    response = client.post(url(course), {"lab": "word-vectors", "params": {"word_a": "king"}},
                           format="json")
    assert response.status_code == 202
    run = LabRun.objects.get()
    assert response["Location"] == url(course, f"{run.uuid}/")
    assert response.json()["status"] == "queued" and response.json()["params"]["word_a"] == "king"

    lab_run_execute(run_id=run.pk)
    polled = client.get(response["Location"]).json()
    assert (polled["status"], polled["progress"]) == ("succeeded", 1.0)
    assert polled["result"]


def test_bad_parameters_name_the_field(course, alice, client_for):
    response = client_for(alice).post(url(course), {"lab": "word-vectors",
                                                    "params": {"word_a": "zebra-crossing"}},
                                      format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and "params.word_a" in response.json()["fields"]
    unknown = client_for(alice).post(url(course), {"lab": "no-such-lab"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["fields"] == {"lab": ["Unknown lab."]}
    assert not LabRun.objects.exists()


def test_a_retried_request_with_an_idempotency_key_queues_one_run(course, alice, client_for):
    client = client_for(alice)
    body = {"lab": "word-vectors"}
    first = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="run-1")
    again = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="run-1")
    assert first.json() == again.json() and again["Location"] == first["Location"]
    assert LabRun.objects.count() == 1


def test_a_retry_after_a_crash_that_stored_the_run_answers_from_the_run(
    course, alice, client_for, monkeypatch
):
    import api.idempotency as idempotency

    monkeypatch.setattr(idempotency, "WAIT_SECONDS", 0.1)
    client = client_for(alice)
    body = {"lab": "word-vectors"}
    first = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="run-2")
    IdempotencyRecord.objects.update(status_code=None, response=None)  # died before answering

    retry = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="run-2")

    assert retry.status_code == 202 and retry["Location"] == first["Location"]
    assert retry.json()["id"] == first.json()["id"] and LabRun.objects.count() == 1


@pytest.mark.services
def test_a_real_worker_runs_a_lab_requested_through_the_api(celery_worker, course, alice, client_for):
    client = client_for(alice)
    location = client.post(url(course), {"lab": "vanishing-gradient"}, format="json")["Location"]
    body = wait_for(lambda: (b := client.get(location).json())["status"] == "succeeded" and b,
                    timeout=60)
    assert body["progress"] == 1.0 and body["result"]
