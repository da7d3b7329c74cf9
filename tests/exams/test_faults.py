"""Exams with the real components cut while students type (issue 40, acceptance line 2):
the web process killed (SIGKILL of gunicorn and its workers, then started again), PostgreSQL
restarted (every connection reset and new ones refused for a while: a TCP proxy in front of
the shared server, cut and restored), and Redis cut for 30 s (the broker of two real
`celery worker --beat` processes and the cache, through a proxy) while attempts expire.

After each: no draft lost (every field holds the last text typed into it; the students
resend what was not acknowledged, as the page script does), no second attempt (a student
who comes back gets the same one), and every expired attempt closed and graded exactly once.
"""

import os
import threading
import time
from datetime import timedelta
from urllib.parse import urlparse

import pytest
from django.db import DatabaseError, connection
from django.urls import reverse
from django.utils import timezone

from exams.models import Attempt
from exams.services import attempts_expired_close, drafts_save
from tests.exams.faults import (
    WebProcess,
    assert_closed_once,
    assert_no_draft_lost,
    assert_one_attempt_each,
    field_names,
    save_path,
    session_cookie,
    started,
    students_enrolled,
)
from tests.exams.test_attempts import right_answers
from tests.exams.typing_student import (
    ClientPost,
    HttpPost,
    TypingStudent,
    joined,
    retried,
    saving_again,
    typing,
)
from tests.tcp_proxy import tcp_proxy
from tests.workers import running_worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TYPISTS = 4
ABANDONED = 3
#: How long Redis is away (acceptance: 30 s).
REDIS_CUT_SECONDS = 30.0


def _abandoned(quiz, prefix: str, deadline_in: float) -> list[Attempt]:
    """Students who saved right answers and left; their deadline `deadline_in` s away."""
    attempts = []
    for user in students_enrolled(quiz, ABANDONED, prefix):
        attempt = started(quiz, user)
        drafts_save(attempt_id=attempt.pk, student=user, drafts=right_answers(attempt))
        Attempt.objects.filter(pk=attempt.pk).update(
            deadline_at=timezone.now() + timedelta(seconds=deadline_in))
        attempts.append(attempt)
    return attempts


def test_killing_the_web_process_mid_attempt_loses_no_draft_and_starts_no_second_attempt(
        quiz_course, tmp_path):
    users = students_enrolled(quiz_course, TYPISTS, "web")
    web = WebProcess(tmp_path)
    web.start()
    try:
        typists = {}
        start_path = reverse("exams:start", args=[quiz_course.course.slug, "quiz-1"])
        page_path = reverse("exams:assessment", args=[quiz_course.course.slug, "quiz-1"])
        for user in users:
            post = HttpPost(web.url, session_cookie(user), page_path)
            status, location = post(start_path, {}, {})
            assert status == 302, status
            attempt = Attempt.objects.get(student=user)
            assert location.endswith(reverse("exams:attempt",
                                             args=[quiz_course.course.slug, attempt.pk]))
            typists[user] = TypingStudent(post, save_path(quiz_course, attempt),
                                          field_names(attempt))
        stop = threading.Event()
        threads = typing(list(typists.values()), stop=stop)
        try:
            wait_for(lambda: all(len(t.acknowledged) >= 2 for t in typists.values()),
                     timeout=60)
            web.kill()  # mid-request for some: their saves are reset, kept, sent again
            time.sleep(1.0)
            web.start()
            saving_again(list(typists.values()))
        finally:
            stop.set()
            joined(threads)
        assert sum(t.refused for t in typists.values()) > 0  # the kill did reach them
        for user, typist in typists.items():  # back in a new browser: the same attempt
            status, location = typist.post(start_path, {}, {})
            assert status == 302
            assert location.endswith(f"/{Attempt.objects.get(student=user).pk}/")
    finally:
        web.stop()
    assert_no_draft_lost(quiz_course, typists)
    assert_one_attempt_each(quiz_course, users)
    attempts = list(Attempt.objects.filter(student__in=users))
    Attempt.objects.filter(student__in=users).update(deadline_at=timezone.now())
    assert attempts_expired_close() == TYPISTS
    assert attempts_expired_close() == 0
    assert_closed_once(attempts, Attempt.ClosedBy.DEADLINE)


def test_a_postgresql_restart_mid_attempt_loses_no_draft_and_the_sweep_closes_each_once(
        quiz_course, proxied_database):
    users = students_enrolled(quiz_course, TYPISTS, "pg")
    typists = {}
    for user in users:
        attempt = started(quiz_course, user)
        typists[user] = TypingStudent(ClientPost(user), save_path(quiz_course, attempt),
                                      field_names(attempt))
    abandoned = _abandoned(quiz_course, "left", deadline_in=3.0)
    stop = threading.Event()
    sweeps: list[int] = []

    def sweep() -> None:  # the beat's sweep, every 0.5 s, through the same outage
        while not stop.is_set():
            try:
                sweeps.append(attempts_expired_close())
            except DatabaseError:  # away: the next sweep retries on a new connection, as
                connection.close()  # a worker does before each task
            time.sleep(0.5)

    sweeper = threading.Thread(target=sweep, daemon=True)
    sweeper.start()
    threads = typing(list(typists.values()), stop=stop)
    try:
        wait_for(lambda: all(len(t.acknowledged) >= 2 for t in typists.values()),
                 timeout=60)
        proxied_database.cut()  # the server restarting: connections reset, new ones refused
        time.sleep(5.0)
        proxied_database.restore()
        connection.close()  # this thread's connection was reset too
        saving_again(list(typists.values()))
        wait_for(lambda: not Attempt.objects.filter(pk__in=[a.pk for a in abandoned],
                                                    closed_at__isnull=True).exists(),
                 timeout=60)
    finally:
        stop.set()
        joined(threads)
        sweeper.join(30)
    assert sum(t.refused for t in typists.values()) > 0  # the cut did reach them
    for user in users:  # coming back after the outage: the same attempt, resumed
        again = retried(lambda user=user: started(quiz_course, user))
        assert again.pk == Attempt.objects.get(student=user).pk
    assert_no_draft_lost(quiz_course, typists)
    assert_one_attempt_each(quiz_course, users)
    assert sum(sweeps) == ABANDONED
    assert_closed_once(abandoned, Attempt.ClosedBy.DEADLINE)
    assert all(a.score == pytest.approx(1.0) for a in abandoned)


@pytest.fixture
def redis_broker(broker_url: str) -> str:
    if not broker_url.startswith("redis"):
        pytest.skip("cutting Redis needs Redis (CELERY_BROKER_URL=redis://...)")
    return broker_url


def test_redis_cut_for_30_seconds_loses_no_draft_and_two_beat_sweeps_close_each_once(
        quiz_course, redis_broker, settings, monkeypatch, tmp_path):
    from config.celery import app

    app.control.purge()
    target = urlparse(redis_broker)
    users = students_enrolled(quiz_course, TYPISTS, "redis")
    with tcp_proxy(target.hostname or "127.0.0.1", target.port or 6379) as proxy:
        proxied = f"redis://127.0.0.1:{proxy.port}{target.path or '/0'}"
        # The cache (sessions, throttles) goes through the same cut as the broker.
        settings.CACHES = {"default": {"BACKEND": "ops.cache.FallbackRedisCache",
                                       "LOCATION": proxied, "KEY_PREFIX": "examfaults",
                                       "OPTIONS": {"FALLBACK_RETRY_SECONDS": 0.5}}}
        typists = {}
        for user in users:
            attempt = started(quiz_course, user)
            typists[user] = TypingStudent(ClientPost(user), save_path(quiz_course, attempt),
                                          field_names(attempt))
        monkeypatch.setitem(os.environ, "EXAM_SWEEP_SECONDS", "1")
        with running_worker(tmp_path, beat=True, broker_url=proxied) as one, \
                running_worker(tmp_path, beat=True, broker_url=proxied) as two:
            stop = threading.Event()
            threads = typing(list(typists.values()), stop=stop, pace=0.2)
            try:
                wait_for(lambda: all(len(t.acknowledged) >= 2 for t in typists.values()),
                         timeout=60)
                proxy.cut()
                cut_at = time.monotonic()
                # These expire while Redis is away: no sweep reaches a worker until it is back.
                abandoned = _abandoned(quiz_course, "gone", deadline_in=3.0)
                time.sleep(max(0.0, REDIS_CUT_SECONDS - (time.monotonic() - cut_at)))
                assert all(a.closed_at is None for a in
                           Attempt.objects.filter(pk__in=[a.pk for a in abandoned]))
                proxy.restore()
                wait_for(lambda: not Attempt.objects.filter(
                    pk__in=[a.pk for a in abandoned], closed_at__isnull=True).exists(),
                    timeout=120, interval=0.5)
                sweeps = one.log().count("succeeded") + two.log().count("succeeded")
                # More sweeps run on both workers after the close: none closes anything again.
                wait_for(lambda: one.log().count("succeeded") + two.log().count("succeeded")
                         >= sweeps + 4, timeout=60, interval=0.5)
            finally:
                stop.set()
                joined(threads)
            for worker in (one, two):
                assert "Unrecoverable error" not in worker.log(), worker.log()[-3000:]
    assert_no_draft_lost(quiz_course, typists)
    assert_one_attempt_each(quiz_course, users)
    assert_closed_once(abandoned, Attempt.ClosedBy.DEADLINE)
    assert all(a.score == pytest.approx(1.0) for a in abandoned)
