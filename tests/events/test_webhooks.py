"""Webhooks: the outbox row commits with its event; signed delivery to a real HTTP receiver
on localhost that fails and recovers; backoff, giving up, replay, sweeping; a real worker."""

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from rest_framework.test import APIClient

from courses.models import Lab, Part
from events.delivery import (
    retry_delay,
    webhook_delivery_attempt,
    webhook_delivery_replay,
    webhook_outbox_sweep,
    webhook_signature,
    webhook_signature_valid,
)
from events.models import WebhookDelivery, WebhookSubscription
from events.outbox import event_record
from events.webhooks import WebhookUrlInvalid, webhook_subscribe
from grading.models import Submission
from grading.services import submission_create, submission_grade
from labs.services import lab_run_execute, lab_run_request
from tests.factories import predictions_made
from tests.workers import wait_for


@dataclass
class Receiver:
    """A real HTTP server on 127.0.0.1 answering POSTs with the next status of `statuses`."""

    statuses: list[int]
    requests: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    url: str = ""


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver(statuses=[])

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            state.requests.append((dict(self.headers.items()), body))
            code = state.statuses.pop(0) if state.statuses else 200
            self.send_response(code)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/grader"
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def numeric_part(course) -> Part:
    return Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")


@pytest.fixture
def client_for():
    def make(user: Any) -> APIClient:
        client = APIClient()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def local_hooks(settings) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    settings.WEBHOOK_RETRY_BASE_SECONDS = 0.05


@pytest.fixture
def subscription(course, receiver: Receiver, local_hooks) -> WebhookSubscription:
    return webhook_subscribe(course=course, url=receiver.url,
                             events=["submission.graded", "lab_run.finished"])


def _signed_by(secret: str, headers: dict[str, str], body: bytes) -> bool:
    return webhook_signature_valid(secret=secret, header=headers["X-Grader-Signature"], body=body)


@pytest.mark.django_db
def test_a_graded_submission_writes_one_outbox_row_per_subscription(
    course, alice, numeric_part, subscription
) -> None:
    submission = submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1")
    row = WebhookDelivery.objects.get()
    assert row.subscription == subscription and row.status == "pending"
    assert row.payload["type"] == "submission.graded"
    assert row.payload["data"]["submission_id"] == submission.pk
    assert row.payload["data"]["outcome"] == submission.outcome
    assert row.payload["data"]["course"] == course.slug


@pytest.mark.django_db
def test_unreadable_answers_and_courses_without_subscribers_write_nothing(
    course, other_course, alice, numeric_part, local_hooks
) -> None:
    webhook_subscribe(course=other_course, url="http://127.0.0.1:9/", events=["submission.graded"])
    # Answers no variant takes as right (the bound is positive), so that the part stays open:
    # "0.1" is right where sigma^steps is 0.0994 (sigma 0.95, 45 steps).
    submission_create(student=alice, course=course, part=numeric_part, raw_answer="-1")
    assert not WebhookDelivery.objects.exists()
    webhook_subscribe(course=course, url="http://127.0.0.1:9/", events=["lab_run.finished"])
    submission_create(student=alice, course=course, part=numeric_part, raw_answer="-2")
    assert not WebhookDelivery.objects.exists()
    webhook_subscribe(course=course, url="http://127.0.0.1:9/", events=["submission.graded"])
    invalid = submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1.2")
    assert invalid.outcome == Submission.Outcome.INVALID
    assert not WebhookDelivery.objects.exists()


@pytest.mark.django_db
def test_only_the_active_subscriptions_of_the_course_to_the_event_get_a_row(
    course, other_course, alice, numeric_part, local_hooks
) -> None:
    """Every graded answer reads the course's listeners (by hand: events/webhooks.py)."""
    first = webhook_subscribe(course=course, url="http://127.0.0.1:9/a", events=["submission.graded"])
    paused = webhook_subscribe(course=course, url="http://127.0.0.1:9/b", events=["submission.graded"])
    paused.is_active = False
    paused.save()
    both = webhook_subscribe(course=course, url="http://127.0.0.1:9/c",
                             events=["lab_run.finished", "submission.graded"])
    webhook_subscribe(course=other_course, url="http://127.0.0.1:9/d", events=["submission.graded"])
    submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1")
    rows = WebhookDelivery.objects.order_by("subscription_id")
    assert [r.subscription_id for r in rows] == [first.pk, both.pk]
    assert len({r.event_id for r in rows}) == 1 and rows[0].payload == rows[1].payload


@pytest.mark.django_db
def test_a_grade_rolled_back_leaves_no_outbox_row(course, alice, numeric_part, subscription) -> None:
    submission = submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1")
    WebhookDelivery.objects.all().delete()
    with pytest.raises(RuntimeError), transaction.atomic():
        submission_grade(submission=submission)
        assert WebhookDelivery.objects.count() == 1
        raise RuntimeError("the event's transaction fails")
    assert not WebhookDelivery.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_outbox_refuses_to_record_outside_a_transaction(course) -> None:
    with pytest.raises(RuntimeError):
        event_record(name="submission.graded", subject_id=1, course_id=course.pk, payload=dict)


@pytest.mark.django_db
def test_a_finished_lab_run_writes_a_lab_run_finished_row(course, alice, subscription) -> None:
    predictions_made(student=alice, course=course, lab_slug="word-vectors")
    run = lab_run_request(lab=Lab.objects.get(slug="word-vectors"), course=course, requester=alice,
                          params={})
    assert lab_run_execute(run_id=run.pk) == "succeeded"
    row = WebhookDelivery.objects.get(event="lab_run.finished")
    assert row.payload["data"]["run_id"] == str(run.uuid)
    assert row.payload["data"]["status"] == "succeeded"


@pytest.mark.django_db
def test_delivery_fails_with_500_then_is_retried_and_delivered_signed(
    course, alice, numeric_part, subscription, receiver: Receiver
) -> None:
    receiver.statuses = [500, 200]
    submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1")
    row = WebhookDelivery.objects.get()

    first = webhook_delivery_attempt(delivery_id=row.pk)
    assert first.outcome == "retry" and first.retry_in == retry_delay(1)
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_status_code) == ("pending", 1, 500)
    assert webhook_delivery_attempt(delivery_id=row.pk).outcome == "skipped"  # not due yet

    wait_for(lambda: webhook_delivery_attempt(delivery_id=row.pk).outcome == "delivered",
             timeout=10, interval=0.05)
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_status_code) == ("delivered", 2, 200)
    assert len(receiver.requests) == 2
    for headers, body in receiver.requests:
        assert _signed_by(subscription.secret, headers, body)
        assert not _signed_by("another secret", headers, body)
        assert headers["X-Grader-Event-Id"] == str(row.event_id)
        assert json.loads(body) == row.payload
    assert webhook_delivery_attempt(delivery_id=row.pk).outcome == "skipped"
    assert len(receiver.requests) == 2


def test_the_signature_is_hmac_sha256_of_timestamp_and_body() -> None:
    import hashlib
    import hmac

    header = webhook_signature(secret="s3cret", timestamp=1700000000, body=b'{"a":1}')
    expected = hmac.new(b"s3cret", b'1700000000.{"a":1}', hashlib.sha256).hexdigest()
    assert header == f"t=1700000000,v1={expected}"
    assert webhook_signature_valid(secret="s3cret", header=header, body=b'{"a":1}', now=1700000100)
    assert not webhook_signature_valid(secret="s3cret", header=header, body=b'{"a":2}', now=1700000100)
    assert not webhook_signature_valid(secret="s3cret", header=header, body=b'{"a":1}', now=1700009999)


def test_backoff_doubles_up_to_its_cap(settings) -> None:
    settings.WEBHOOK_RETRY_BASE_SECONDS = 10
    settings.WEBHOOK_RETRY_MAX_SECONDS = 100
    assert [retry_delay(n) for n in range(1, 6)] == [10, 20, 40, 80, 100]


@pytest.mark.django_db
def test_a_delivery_that_keeps_failing_gives_up_is_listed_and_can_be_replayed(
    settings, course, alice, irene, numeric_part, subscription, receiver: Receiver, client_for
) -> None:
    settings.WEBHOOK_MAX_ATTEMPTS = 3
    receiver.statuses = [503, 503, 503]
    submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1")
    row = WebhookDelivery.objects.get()
    outcomes: list[str] = []
    while not outcomes or outcomes[-1] not in ("failed", "delivered"):
        outcome = webhook_delivery_attempt(delivery_id=row.pk).outcome
        if outcome != "skipped":
            outcomes.append(outcome)
    assert outcomes == ["retry", "retry", "failed"]

    api = client_for(irene)
    listed = api.get(f"/api/v1/courses/{course.slug}/webhook-deliveries/?status=failed").json()
    assert [d["id"] for d in listed["results"]] == [row.pk]
    assert listed["results"][0]["last_status_code"] == 503

    replayed = api.post(f"/api/v1/courses/{course.slug}/webhook-deliveries/{row.pk}/replay/")
    assert replayed.status_code == 202 and replayed.json()["status"] == "pending"
    assert webhook_delivery_attempt(delivery_id=row.pk).outcome == "delivered"
    assert len(receiver.requests) == 4
    assert len({h["X-Grader-Event-Id"] for h, _ in receiver.requests}) == 1


@pytest.mark.django_db
def test_replay_of_a_failed_delivery_resets_its_attempts(course, alice, numeric_part, subscription) -> None:
    submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1")
    row = WebhookDelivery.objects.get()
    WebhookDelivery.objects.filter(pk=row.pk).update(status="failed", attempts=10)
    replayed = webhook_delivery_replay(delivery=row)
    assert (replayed.status, replayed.attempts) == ("pending", 0)


@pytest.mark.django_db
def test_the_sweeper_requeues_only_overdue_pending_rows(course, alice, numeric_part, subscription) -> None:
    for answer in ("0.1", "0.2", "0.3"):
        submission_create(student=alice, course=course, part=numeric_part, raw_answer=answer)
    overdue, _due_now, delivered = WebhookDelivery.objects.order_by("id")
    long_ago = timezone.now() - timedelta(minutes=10)
    WebhookDelivery.objects.filter(pk=overdue.pk).update(next_attempt_at=long_ago)
    WebhookDelivery.objects.filter(pk=delivered.pk).update(next_attempt_at=long_ago, status="delivered")
    queued: list[int] = []
    assert webhook_outbox_sweep(enqueue=queued.append) == [overdue.pk]
    assert queued == [overdue.pk]


@pytest.mark.django_db
def test_private_addresses_are_refused_unless_allowed(settings, course) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = False
    for url in ("http://127.0.0.1:8000/x", "http://10.0.0.5/x", "http://localhost/x", "ftp://example.org/"):
        with pytest.raises(WebhookUrlInvalid):
            webhook_subscribe(course=course, url=url, events=["submission.graded"])
    with pytest.raises(ValueError):
        webhook_subscribe(course=course, url="https://example.org/", events=["no.such.event"])


@pytest.fixture
def fast_worker_retries(monkeypatch) -> None:
    """Settings the worker process reads from its environment (it inherits ours)."""
    monkeypatch.setenv("WEBHOOK_ALLOW_PRIVATE_HOSTS", "1")
    monkeypatch.setenv("WEBHOOK_RETRY_BASE_SECONDS", "0.5")


@pytest.fixture
def webhook_worker(fast_worker_retries, celery_worker):
    """A real Celery worker started after the environment above is set."""
    return celery_worker


@pytest.mark.services
def test_a_real_worker_delivers_after_a_500_and_loses_nothing(
    webhook_worker, settings, course, alice, lms_token_for_worker, receiver: Receiver
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    receiver.statuses = [500, 200]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {lms_token_for_worker}")
    created = client.post(f"/api/v1/courses/{course.slug}/webhooks/",
                          {"url": receiver.url, "events": ["submission.graded"]}, format="json")
    assert created.status_code == 201, created.content
    secret = created.json()["secret"]
    part_id = client.get(f"/api/v1/courses/{course.slug}/exercises/apply-1-gradient-bound/").json()[
        "parts"][0]["id"]
    submitted = client.post(f"/api/v1/courses/{course.slug}/submissions/",
                            {"part": part_id, "answer": "0.01", "student": alice.pk}, format="json")
    assert submitted.status_code == 201, submitted.content

    row = wait_for(lambda: WebhookDelivery.objects.filter(status="delivered").first(), timeout=60)
    assert row is not None
    assert row.attempts == 2
    assert len(receiver.requests) == 2
    assert all(_signed_by(secret, headers, body) for headers, body in receiver.requests)
    body = json.loads(receiver.requests[-1][1])
    assert body["data"]["submission_id"] == submitted.json()["id"]


@pytest.fixture
def lms_token_for_worker(course, irene) -> str:
    from api.keys import api_key_create

    return api_key_create(course=course, name="LMS", role="lms", created_by=irene).token
