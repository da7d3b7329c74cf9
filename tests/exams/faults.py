"""Shared parts of the exam fault tests: a class of students with attempts in progress, a
real web process (gunicorn) on the test database, and the checks every fault must pass (no
draft lost, no second attempt, every closed attempt graded once)."""

import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import cast

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from courses.models import Enrollment
from exams.models import Answer, Attempt, AuditEntry, Question
from exams.services import attempt_start
from tests import workers
from tests.exams.conftest import QuizCourse
from tests.exams.typing_student import TypingStudent
from tests.factories import UserFactory


def students_enrolled(quiz: QuizCourse, count: int, prefix: str) -> list[User]:
    """`count` new students of the quiz's course."""
    users = [cast(User, UserFactory(username=f"{prefix}{n}")) for n in range(count)]
    for user in users:
        Enrollment.objects.create(course=quiz.course, user=user, role=Enrollment.Role.STUDENT)
    return users


def field_names(attempt: Attempt) -> list[str]:
    """The input names of every part of the attempt's paper (as the page names them)."""
    questions = {str(q.uuid): q for q in Question.objects.filter(
        uuid__in=[e["question"] for e in attempt.paper])}
    return [f"q{e['question']}-{part['key']}" for e in attempt.paper
            for part in questions[e["question"]].parts]


def save_path(quiz: QuizCourse, attempt: Attempt) -> str:
    return reverse("exams:save", args=[quiz.course.slug, attempt.pk])


def started(quiz: QuizCourse, user: User) -> Attempt:
    return attempt_start(student=user, course=quiz.course, assessment=quiz.assessment).attempt


def session_cookie(user: User) -> str:
    """A signed-in session of `user` stored in the database (any web process reads it)."""
    client = Client()
    client.force_login(user)
    return str(client.cookies["sessionid"].value)


def assert_no_draft_lost(quiz: QuizCourse, typists: dict[User, TypingStudent]) -> None:
    """Every field's stored draft is the last text the student typed into it (nothing is
    pending any more: each text was resent until the service said it was saved)."""
    for user, typist in typists.items():
        assert not typist.pending, f"{user}: {typist.pending} never saved"
        assert typist.typed, f"{user} typed nothing"
        attempt = Attempt.objects.get(student=user, assessment=quiz.assessment)
        stored = {f"q{a.question.uuid}-{a.part_key}": a.raw
                  for a in Answer.objects.filter(attempt=attempt).select_related("question")}
        assert {name: stored.get(name) for name in typist.typed} == typist.typed, user


def assert_one_attempt_each(quiz: QuizCourse, users: list[User]) -> None:
    counts = Counter(Attempt.objects.filter(assessment=quiz.assessment, student__in=users)
                     .values_list("student_id", flat=True))
    assert counts == Counter({user.pk: 1 for user in users})


def assert_closed_once(attempts: list[Attempt], closed_by: str | None = None) -> None:
    """Each attempt closed and graded exactly once: one close (or submit) in the audit log,
    every saved draft with its outcome and the paper's score set."""
    for attempt in attempts:
        attempt.refresh_from_db()
        assert attempt.closed_at is not None and attempt.score is not None, attempt
        if closed_by is not None:
            assert attempt.closed_by == closed_by, attempt
        closes = AuditEntry.objects.filter(attempt=attempt, action__in=["close", "submit"])
        assert closes.count() == 1, f"{attempt} closed {closes.count()} times"
        assert not Answer.objects.filter(attempt=attempt, outcome="").exists(), attempt


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class WebProcess:
    """gunicorn (two workers) on the test database, on a fixed port so that a restart comes
    back where the students' pages point."""

    def __init__(self, log_dir: Path) -> None:
        self.port = free_port()
        self.log_path = log_dir / "gunicorn.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "DATABASE_URL": workers.test_database_url(),
               "DJANGO_SETTINGS_MODULE": "config.settings.test",
               "GUNICORN_BIND": f"127.0.0.1:{self.port}", "WEB_CONCURRENCY": "2",
               "GUNICORN_TIMEOUT": "120"}
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py",
                 "config.wsgi"], cwd=workers.ROOT, env=env, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.2):
                    return
            except OSError:
                assert self.process.poll() is None, self.log_path.read_text()
                time.sleep(0.1)
        raise AssertionError(f"gunicorn did not listen:\n{self.log_path.read_text()}")

    def kill(self) -> None:
        """SIGKILL gunicorn and its workers, as a crashed host or an OOM kill would."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
