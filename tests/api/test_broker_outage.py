"""A dead broker: answers and lab runs are still stored, graded and answered (never a 500),
a retry with the same Idempotency-Key never stores twice, and the sweeps queue the work once
the broker is back."""

from datetime import timedelta

import pytest

from events.delivery import webhook_outbox_sweep
from events.models import WebhookDelivery
from events.webhooks import webhook_subscribe
from grading.models import Submission
from labs.models import LabRun
from labs.services import lab_run_sweep
from tests.factories import predictions_made

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_answer_is_stored_graded_and_answered_while_the_broker_is_down(
        settings, course, alice, numeric_part, client_for, dead_broker) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    webhook_subscribe(course=course, url="http://127.0.0.1:9/hook", events=["submission.graded"])
    client = client_for(alice)
    body = {"part": numeric_part.pk, "answer": "0.5"}
    first = client.post(f"/api/v1/courses/{course.slug}/submissions/", body, format="json",
                        HTTP_IDEMPOTENCY_KEY="outage-1")
    assert first.status_code == 201, first.content
    assert first.json()["outcome"] in ("correct", "incorrect", "partial")
    again = client.post(f"/api/v1/courses/{course.slug}/submissions/", body, format="json",
                        HTTP_IDEMPOTENCY_KEY="outage-1")
    assert again.status_code == 201 and again.json()["id"] == first.json()["id"]
    assert Submission.objects.count() == 1
    # The delivery's message was lost; its row waits for the outbox sweep.
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == WebhookDelivery.Status.PENDING
    swept: list[int] = []
    webhook_outbox_sweep(grace=timedelta(seconds=-60), enqueue=swept.append)
    assert swept == [delivery.pk]


def test_a_lab_run_is_stored_and_accepted_while_the_broker_is_down(
        course, alice, client_for, dead_broker) -> None:
    predictions_made(student=alice, course=course, lab_slug="word-vectors")
    client = client_for(alice)
    url = f"/api/v1/courses/{course.slug}/lab-runs/"
    first = client.post(url, {"lab": "word-vectors"}, format="json", HTTP_IDEMPOTENCY_KEY="outage-2")
    assert first.status_code == 202, first.content
    again = client.post(url, {"lab": "word-vectors"}, format="json", HTTP_IDEMPOTENCY_KEY="outage-2")
    assert again.status_code == 202 and again["Location"] == first["Location"]
    run = LabRun.objects.get()
    assert run.status == LabRun.Status.QUEUED
    swept: list[int] = []
    lab_run_sweep(queued_after=timedelta(seconds=-60), enqueue=swept.append)
    assert swept == [run.pk]


def test_a_web_answer_is_saved_and_shown_while_the_broker_is_down(
        settings, course, alice, client, dead_broker) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    webhook_subscribe(course=course, url="http://127.0.0.1:9/hook", events=["submission.graded"])
    from courses.models import Part

    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    client.force_login(alice)
    response = client.post(f"/courses/{course.slug}/parts/{part.pk}/answer/",
                           {"answer": "0.85^40"})
    assert response.status_code in (200, 302)
    assert Submission.objects.get().outcome in ("correct", "incorrect")  # graded, per variant
