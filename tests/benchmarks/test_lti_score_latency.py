"""LTI grade passback latency: from an answer graded to its score at the platform.

Run on demand (ideally with Redis and PostgreSQL, as in production):
  DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench CELERY_BROKER_URL=redis://127.0.0.1:6379/15 \
  RUN_BENCHMARKS=1 pytest tests/benchmarks/test_lti_score_latency.py -s
Prints figures; asserts no time. Target (issue 13): p50 <= 2 s with a worker running. The
baseline from the same run and the same answers is the webhook delivery of the same
"submission.graded" event to the same HTTP server (one plain POST, no token, no scores).
"""

import statistics
import time

import pytest
from django.core.cache import cache
from django.db import connection

from courses.models import Part
from events.webhooks import webhook_subscribe
from grading.services import submission_create
from tests.lti.ags_setup import platform_link
from tests.lti.lms_server import LmsRequest, LmsResponse, LmsServer
from tests.workers import running_worker, wait_for

pytestmark = pytest.mark.benchmark

ANSWERS = 40


@pytest.fixture
def lms_server():
    server = LmsServer().start()
    yield server
    server.stop()


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def test_score_reaches_the_platform_soon_after_grading(transactional_db, broker_url, lms_server,
                                                       course, alice, module_05, tmp_path,
                                                       monkeypatch, settings):
    monkeypatch.setenv("CONN_MAX_AGE", "60")
    monkeypatch.setenv("WEBHOOK_ALLOW_PRIVATE_HOSTS", "true")
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    cache.clear()
    print(f"\ndatabase {connection.vendor}, broker {settings.CELERY_BROKER_URL.split(':')[0]}")
    bound = Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")
    bound.exercise.max_attempts = 0
    bound.exercise.save(update_fields=["max_attempts"])
    link = platform_link(lms_server, course)
    link.identity(alice)
    link.line_item(bound.exercise)
    hooks: list[float] = []

    def hook(request: LmsRequest) -> LmsResponse:
        hooks.append(time.monotonic())
        return LmsResponse(200, {})

    lms_server.route("POST", "/hook", hook)
    webhook_subscribe(course=course, url=f"{lms_server.url}/hook", events=["submission.graded"])

    score_ms, hook_ms = [], []
    with running_worker(tmp_path, concurrency=2):
        submission_create(student=alice, course=course, part=bound, raw_answer="1")  # warm-up
        wait_for(lambda: len(link.platform.scores) >= 1 and len(hooks) >= 1, timeout=60)
        for i in range(ANSWERS):  # one at a time: queueing behind other answers is not counted
            before_scores, before_hooks = len(link.platform.scores), len(hooks)
            submission_create(student=alice, course=course, part=bound, raw_answer=str(i + 2))
            graded = time.monotonic()
            wait_for(lambda b=before_scores: len(link.platform.scores) > b, timeout=60,
                     interval=0.002)
            wait_for(lambda b=before_hooks: len(hooks) > b, timeout=60, interval=0.002)
            score_ms.append((link.platform.scores[-1].received_at - graded) * 1000)
            hook_ms.append((hooks[-1] - graded) * 1000)
    p50, base = statistics.median(score_ms), statistics.median(hook_ms)
    print(f"score at the platform after grading: p50 {p50:.1f} ms, p95 {_p(score_ms, 0.95):.1f} "
          f"ms, max {max(score_ms):.1f} ms (target p50 <= 2000 ms)")
    print(f"baseline, webhook of the same event: p50 {base:.1f} ms, p95 {_p(hook_ms, 0.95):.1f} "
          f"ms; ratio score/webhook p50 {p50 / base:.2f}")
    print(f"token requests {link.platform.token_requests}, scores received "
          f"{len(link.platform.scores)} for {ANSWERS + 1} answers")
