"""A student typing into an open attempt as exams/static/exams/attempt.js does it, for the
fault tests: each keystroke burst makes a field's newest text pending; pending fields are
posted to the save endpoint; a 200 takes them off (they are saved on the server); anything
else (a reset connection, a refused one, a 503, a 500 from a dying process) keeps them
pending and they are sent again after a short wait; a 409 means the attempt was closed.

Two ways to reach the service: `HttpPost` (a real web process, over HTTP with the session
and CSRF cookies) and `ClientPost` (Django's test client in this process, whose database
connection is whatever the test made it, e.g. a TCP proxy it cuts).
"""

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import requests
from django.db import connection
from django.test import Client

from exams.services import AttemptRefused

SAVE_HEADER = {"X-Exam-Save": "1"}


class Post(Protocol):
    def __call__(self, path: str, data: dict[str, str], headers: dict[str, str]
                 ) -> tuple[int, str]: ...


class HttpPost:
    """POST to a real web process with a signed-in student's session cookie."""

    def __init__(self, base_url: str, session_cookie: str, csrf_path: str) -> None:
        self.base_url = base_url
        self.http = requests.Session()
        self.http.cookies.set("sessionid", session_cookie)
        self.csrf_path = csrf_path

    def _token(self) -> str:
        token = self.http.cookies.get("csrftoken")
        if token is None:
            self.http.get(self.base_url + self.csrf_path, timeout=30)
            token = self.http.cookies.get("csrftoken")
        if token is None:
            raise OSError("no CSRF cookie yet")
        return str(token)

    def __call__(self, path: str, data: dict[str, str], headers: dict[str, str]
                 ) -> tuple[int, str]:
        response = self.http.post(self.base_url + path, data=data, allow_redirects=False,
                                  headers={**headers, "X-CSRFToken": self._token()}, timeout=30)
        return response.status_code, response.headers.get("Location", "")


class ClientPost:
    """POST through Django's test client (no CSRF check), errors answered as responses."""

    def __init__(self, user: Any) -> None:
        self.client = Client(raise_request_exception=False)
        self.client.force_login(user)

    def __call__(self, path: str, data: dict[str, str], headers: dict[str, str]
                 ) -> tuple[int, str]:
        response = self.client.post(path, data, headers=headers)
        return response.status_code, response.headers.get("Location", "")


@dataclass
class TypingStudent:
    """One student's typing: `fields` are the paper's input names; each round types a new
    text into one field (round-robin) and sends every pending field."""

    post: Post
    save_path: str
    fields: list[str]
    typed: dict[str, str] = field(default_factory=dict)
    acknowledged: dict[str, str] = field(default_factory=dict)
    pending: dict[str, str] = field(default_factory=dict)
    refused: int = 0
    saved: int = 0
    closed: bool = False
    errors: list[str] = field(default_factory=list)

    def type_once(self, n: int) -> None:
        """Type the `n`th text (into field n mod the number of fields); send what is pending."""
        name = self.fields[n % len(self.fields)]
        self.typed[name] = self.pending[name] = f"{n}"
        self.flush()

    def flush(self) -> bool:
        """Send every pending field once; True when nothing is left pending."""
        if not self.pending or self.closed:
            return True
        sent = dict(self.pending)
        try:
            status, _ = self.post(self.save_path, sent, SAVE_HEADER)
        except (OSError, requests.RequestException) as exc:  # reset, refused: resend later
            self.refused += 1
            self.errors.append(type(exc).__name__)
            return False
        if status == 409:
            self.closed = True
            return True
        if status != 200:
            self.refused += 1
            self.errors.append(str(status))
            return False
        self.saved += 1
        for name, text in sent.items():
            self.acknowledged[name] = text
            if self.pending.get(name) == text:
                del self.pending[name]
        return not self.pending


def typing(students: list[TypingStudent], *, stop: threading.Event, pace: float = 0.05
           ) -> list[threading.Thread]:
    """Start one thread per student typing until `stop` is set (then retrying what is
    pending until it is saved or a minute has gone)."""

    def run(student: TypingStudent) -> None:
        n = 0
        while not stop.is_set():
            student.type_once(n)
            n += 1
            time.sleep(pace if not student.pending else pace * 4)
        deadline = time.monotonic() + 60
        while not student.flush() and time.monotonic() < deadline:
            time.sleep(0.2)
        connection.close()  # this thread's, when the student reached the service in-process

    threads = [threading.Thread(target=run, args=(s,), daemon=True) for s in students]
    for thread in threads:
        thread.start()
    return threads


def joined(threads: list[threading.Thread], timeout: float = 120) -> None:
    """Wait for the typing threads (AssertionError if one is still running after `timeout`)."""
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
        assert not thread.is_alive(), "a student's typing did not end"


def retried(call: Callable[[], Any], *, timeout: float = 60, interval: float = 0.3) -> Any:
    """`call()` again until it returns without a connection error (the database or web
    process coming back); the error after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return call()
        except AttemptRefused:
            raise
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(interval)


def saving_again(students: list[TypingStudent], *, timeout: float = 180) -> None:
    """Wait until every student has had two more saves acknowledged than now (the service
    answers again); AssertionError naming what they got meanwhile after `timeout` s."""
    marks = [s.saved for s in students]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(s.saved >= mark + 2 for s, mark in zip(students, marks, strict=True)):
            return
        time.sleep(0.2)
    raise AssertionError(f"saves not acknowledged again: {[s.errors[-5:] for s in students]}")
