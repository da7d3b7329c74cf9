"""An Idempotency-Key across a real database outage (PostgreSQL behind a TCP proxy that the
test cuts at a chosen point of the request): a request that failed before storing leaves
its key free, so that its retry is processed at once (issue 38: the retry got 409
`idempotency_in_progress` for two minutes); one that failed after storing is answered from
what it stored, never stored twice."""

import pytest

import api.idempotency as idempotency
import api.resources.submissions as submissions_api
import grading.services as grading_services
from api.models import IdempotencyRecord
from grading.models import Submission

pytestmark = pytest.mark.django_db(transaction=True)


def url(course) -> str:
    return f"/api/v1/courses/{course.slug}/submissions/"


@pytest.fixture
def short_wait(monkeypatch) -> None:
    """A retry waits for an unfinished first request 0.5 s (15 s in production), so that a
    test of the old behaviour fails quickly rather than slowly."""
    monkeypatch.setattr(idempotency, "WAIT_SECONDS", 0.5)


def cut_before(monkeypatch, module, name: str, proxy) -> None:
    """Cut the database just before `module.name` runs (once): the real function then meets
    a dropped connection, as when PostgreSQL restarts at that moment."""
    real = getattr(module, name)
    cuts: list[str] = []

    def cut_then_run(*args, **kwargs):
        if not cuts:
            cuts.append(name)
            proxy.cut()
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, cut_then_run)


def test_a_retry_after_a_503_that_stored_nothing_is_processed_at_once(
        proxied_database, monkeypatch, short_wait, course, alice, numeric_part,
        client_for) -> None:
    client = client_for(alice)
    body = {"part": numeric_part.pk, "answer": "0.5"}
    assert client.get(url(course)).status_code == 200  # the connection is open
    cut_before(monkeypatch, submissions_api, "submission_create", proxied_database)

    failed = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="restart-1")
    assert failed.status_code == 503 and failed.json()["code"] == "database_unavailable"
    assert failed["Retry-After"]
    proxied_database.restore()  # PostgreSQL is back

    retry = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="restart-1")
    assert retry.status_code == 201, retry.content  # was 409 idempotency_in_progress
    assert "Idempotent-Replayed" not in retry
    again = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="restart-1")
    assert again.status_code == 201 and again.json()["id"] == retry.json()["id"]
    assert again["Idempotent-Replayed"] == "true"
    assert Submission.objects.count() == 1
    assert IdempotencyRecord.objects.get().resource == f"submission:{retry.json()['id']}"


def test_a_retry_after_a_503_that_came_after_storing_answers_from_the_stored_answer(
        proxied_database, monkeypatch, short_wait, course, alice, numeric_part,
        client_for) -> None:
    client = client_for(alice)
    body = {"part": numeric_part.pk, "answer": "0.5"}
    assert client.get(url(course)).status_code == 200
    # The answer is committed, then the database goes away while it is graded.
    cut_before(monkeypatch, grading_services, "submission_grade", proxied_database)

    failed = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="restart-2")
    assert failed.status_code == 503
    proxied_database.restore()

    stored = Submission.objects.get()
    retry = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="restart-2")
    assert retry.status_code == 201, retry.content
    assert retry.json()["id"] == stored.pk and retry["Idempotent-Replayed"] == "true"
    assert Submission.objects.count() == 1
