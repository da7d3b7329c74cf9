"""Prometheus metrics: the endpoint's protection, request and query metrics, the services'
counters (grading, lab runs, the sweeper, webhook deliveries), gauges computed at scrape
time, and a real worker's counters summed through the multiprocess folder."""

import os
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from courses.models import Lab, Part
from events.delivery import webhook_delivery_attempt
from events.models import WebhookDelivery
from events.webhooks import webhook_subscribe
from grading.services import submission_create
from labs.models import LabRun
from labs.services import lab_run_execute, lab_run_request, lab_run_sweep
from tests.ops.conftest import free_port
from tests.workers import ROOT, running_worker, wait_for

TOKEN = "metrics-test-token"


@pytest.fixture
def metrics_on(settings) -> None:
    settings.METRICS_TOKEN = TOKEN


def _scrape() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def _value(samples: dict, name: str, **labels: str) -> float | None:
    return samples.get((name, tuple(sorted(labels.items()))))


def _count(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_metrics_do_not_exist_without_a_token(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404


def test_metrics_refuse_a_missing_or_wrong_bearer_token(client, metrics_on):
    assert client.get("/metrics").status_code == 401
    refused = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}x")
    assert refused.status_code == 401 and refused["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Basic {TOKEN}").status_code == 401


@pytest.mark.django_db
def test_requests_are_counted_per_view_and_status_with_a_latency_histogram(client, metrics_on,
                                                                           empty_cache):
    before = _count("django_http_responses_total_by_status_view_method_total",
                    status="200", view="health-live", method="GET")
    client.get("/health/live/")
    client.get("/health/live/")
    samples = _scrape()
    assert _value(samples, "django_http_responses_total_by_status_view_method_total",
                  status="200", view="health-live", method="GET") == before + 2
    assert _value(samples, "django_http_requests_latency_seconds_by_view_method_count",
                  view="health-live", method="GET") >= 2
    assert _value(samples, "django_http_requests_latency_seconds_by_view_method_bucket",
                  view="health-live", method="GET", le="+Inf") >= 2


@pytest.mark.django_db
def test_database_queries_are_counted_with_their_duration(metrics_on, course):
    from django.db import connection

    labels = {"alias": "default", "vendor": connection.vendor}
    before = _count("django_db_execute_total", **labels)
    list(Lab.objects.all())
    list(Part.objects.all()[:3])
    assert _count("django_db_execute_total", **labels) >= before + 2
    assert _count("django_db_query_duration_seconds_count", **labels) >= before + 2


@pytest.mark.django_db
def test_graded_answers_are_counted_by_outcome_and_answer_type_with_their_time(course, alice):
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    assert part.spec["type"] == "numeric"
    first = submission_create(student=alice, course=course, part=part, raw_answer="0.5")
    invalid_before = _count("grader_submissions_graded_total", outcome="invalid",
                            answer_type="numeric")
    time_before = _count("grader_grading_seconds_count", answer_type="numeric")

    submission_create(student=alice, course=course, part=part, raw_answer="0.1.2")

    assert _count("grader_submissions_graded_total", outcome="invalid",
                  answer_type="numeric") == invalid_before + 1
    assert _count("grader_grading_seconds_count", answer_type="numeric") == time_before + 1
    assert _count("grader_submissions_graded_total", outcome=first.outcome,
                  answer_type="numeric") >= 1


@pytest.mark.django_db
def test_lab_run_outcomes_and_the_sweepers_requeues_are_counted(course, irene):
    lab = Lab.objects.get(slug="vanishing-gradient")
    succeeded = _count("grader_lab_run_executions_total", outcome="succeeded")
    finished = _count("grader_lab_run_executions_total", outcome="finished-already")
    requeued = _count("grader_lab_runs_requeued_total")

    run = lab_run_request(lab=lab, course=course, requester=irene, params={}, seed=11)
    assert lab_run_execute(run_id=run.pk) == "succeeded"
    assert lab_run_execute(run_id=run.pk) == "finished-already"  # a redelivered task
    lost = lab_run_request(lab=lab, course=course, requester=irene, params={}, seed=12)
    LabRun.objects.filter(pk=lost.pk).update(queued_at=timezone.now() - timedelta(hours=1))
    assert lab_run_sweep(enqueue=lambda run_id: None) == [lost.pk]

    assert _count("grader_lab_run_executions_total", outcome="succeeded") == succeeded + 1
    assert _count("grader_lab_run_executions_total", outcome="finished-already") == finished + 1
    assert _count("grader_lab_run_seconds_count", outcome="succeeded") >= 1
    assert _count("grader_lab_runs_requeued_total") == requeued + 1


@pytest.fixture
def webhook_receiver() -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 that answers every POST with 204."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()
    server.server_close()


@pytest.mark.django_db
def test_webhook_deliveries_are_counted_as_sent_retrying_and_failed(course, alice, settings,
                                                                   webhook_receiver):
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    webhook_subscribe(course=course, url=webhook_receiver, events=["submission.graded"])
    webhook_subscribe(course=course, url=f"http://127.0.0.1:{free_port()}/closed",
                      events=["submission.graded"])
    submission_create(student=alice, course=course, part=part, raw_answer="0.5")
    good, bad = WebhookDelivery.objects.order_by("subscription_id")
    before = {outcome: _count("grader_outbox_deliveries_total", channel="webhook", outcome=outcome)
              for outcome in ("sent", "retrying", "failed", "skipped")}

    assert webhook_delivery_attempt(delivery_id=good.pk).outcome == "delivered"
    assert webhook_delivery_attempt(delivery_id=good.pk).outcome == "skipped"
    assert webhook_delivery_attempt(delivery_id=bad.pk).outcome == "retry"
    WebhookDelivery.objects.filter(pk=bad.pk).update(next_attempt_at=timezone.now())
    assert webhook_delivery_attempt(delivery_id=bad.pk).outcome == "failed"

    after = {outcome: _count("grader_outbox_deliveries_total", channel="webhook", outcome=outcome)
             for outcome in before}
    assert {outcome: after[outcome] - before[outcome] for outcome in before} == {
        "sent": 1, "retrying": 1, "failed": 1, "skipped": 1}


@pytest.mark.django_db
def test_another_outbox_channel_adds_its_counts_and_backlog_without_new_metrics(metrics_on,
                                                                               monkeypatch):
    from core.metrics import outbox_delivery_observe
    from ops import metrics_state

    monkeypatch.setattr(metrics_state, "_BACKLOG", dict(metrics_state._BACKLOG))
    metrics_state.outbox_backlog_register("lti", lambda: {"pending": 3, "failed": 1})
    outbox_delivery_observe(channel="lti", outcome="sent")

    samples = _scrape()
    assert _value(samples, "grader_outbox_deliveries_total", channel="lti", outcome="sent") >= 1
    assert _value(samples, "grader_outbox_backlog", channel="lti", status="pending") == 3
    assert _value(samples, "grader_outbox_backlog", channel="webhook", status="pending") == 0


@pytest.mark.django_db(transaction=True)
def test_queue_depth_and_active_runs_are_read_from_the_database_and_broker_when_scraped(
    metrics_on, course, irene, broker_url
):
    from config.celery import app
    from core.queueing import task_send
    from ops.models import WorkerHeartbeat

    lab = Lab.objects.get(slug="vanishing-gradient")
    app.control.purge()
    try:
        runs = [lab_run_request(lab=lab, course=course, requester=irene, params={}, seed=seed)
                for seed in (21, 22, 23)]
        LabRun.objects.filter(pk=runs[0].pk).update(status=LabRun.Status.RUNNING)
        WorkerHeartbeat.objects.create(worker="celery@one", seen_at=timezone.now())
        assert task_send("labs.tasks.lab_run_sweep_task")

        samples = _scrape()
    finally:
        app.control.purge()

    queue = app.conf.task_default_queue
    assert _value(samples, "grader_lab_runs", status="queued") == 2
    assert _value(samples, "grader_lab_runs", status="running") == 1
    assert _value(samples, "grader_celery_workers_seen") == 1
    assert _value(samples, "grader_broker_up") == 1
    assert _value(samples, "grader_broker_queue_messages", queue=queue) == 4  # 3 runs + 1


@pytest.mark.django_db
def test_a_dead_broker_is_reported_as_down_and_the_scrape_still_answers(metrics_on, dead_broker):
    samples = _scrape()
    assert _value(samples, "grader_broker_up") == 0
    assert not any(name == "grader_broker_queue_messages" for name, _ in samples)


@pytest.mark.services
def test_a_real_workers_counters_reach_metrics_through_the_multiprocess_folder(
    transactional_db, broker_url, course, irene, tmp_path, monkeypatch, metrics_on
):
    from config.celery import app

    folder = tmp_path / "prometheus"
    folder.mkdir()
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(folder))  # the worker inherits it
    app.control.purge()
    lab = Lab.objects.get(slug="vanishing-gradient")
    with running_worker(tmp_path, concurrency=1):
        run = lab_run_request(lab=lab, course=course, requester=irene, params={}, seed=31)
        wait_for(lambda: LabRun.objects.filter(pk=run.pk, status="succeeded").exists())

    samples = _scrape()  # this process reads the folder the worker's processes wrote
    assert _value(samples, "grader_lab_run_executions_total", outcome="succeeded") == 1
    assert _value(samples, "grader_lab_run_seconds_count", outcome="succeeded") == 1
    assert any(path.suffix == ".db" for path in folder.iterdir())

    # A worker host without a web process serves the same folder on an internal address.
    port = free_port()
    server = subprocess.Popen([sys.executable, "manage.py", "metrics_serve", "--port", str(port)],
                              cwd=ROOT, env={**os.environ, "DJANGO_SETTINGS_MODULE":
                                             "config.settings.test"},
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert b"serving" in (server.stdout.readline() if server.stdout else b"")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as page:
            text = page.read().decode()
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert 'grader_lab_run_executions_total{outcome="succeeded"} 1.0' in text
