"""Nothing a student sends is lost while PostgreSQL is away (issue 38): a stream of answers from
four students (two plain forms without JavaScript, one page script answering in place, one
API client with an Idempotency-Key per answer) runs while the test cuts the database
(a TCP proxy in front of it) for 10 and for 60 seconds. Every answer must end stored exactly
once; while the database is away each one is refused as NOT saved with its text kept (the
form students resend the very form the refusal page holds), and none is silently lost."""

import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from courses.models import Enrollment, Exercise, Part
from grading.models import Submission
from grading.recovery import submissions_recover
from tests.factories import EnrollmentFactory, UserFactory
from tests.kept_forms import kept_form

pytestmark = pytest.mark.django_db(transaction=True)

#: The pages resend after Retry-After; the test's students resend sooner, to send more while
#: the database is away.
RESEND_SECONDS = 0.5
#: Seconds of answers before the cut and after the database is back.
BEFORE_SECONDS, AFTER_SECONDS = 2.0, 3.0
#: Deadline for the last kept answers to go through once the stream stops.
DRAIN_SECONDS = 60.0
#: Pace of a student's answers while the service answers.
PACE_SECONDS = 0.1


@dataclass
class Tally:
    """What one student sent and what the service said."""

    sent: list[str] = field(default_factory=list)
    taken: list[str] = field(default_factory=list)
    requests: int = 0
    refused_kept: int = 0
    refused_answers: int = 0
    failures: list[str] = field(default_factory=list)


class Student:
    """One student answering the part again and again, each answer a new number."""

    def __init__(self, kind: str, number: int, user: Any, course: Any, part: Part) -> None:
        self.kind, self.number, self.user, self.part = kind, number, user, part
        self.answer_url = f"/courses/{course.slug}/parts/{part.pk}/answer/"
        self.api_url = f"/api/v1/courses/{course.slug}/submissions/"
        # A server error is a response to count, not an exception: Django's test client
        # re-raises any request's exception in every thread that has a request in flight.
        self.client: Any = (APIClient if kind == "api" else Client)(raise_request_exception=False)
        self.client.force_login(user)
        self.tally = Tally()

    def text(self, seq: int) -> str:
        # Distinct numbers, all wrong whatever the student's variant (the bound is positive),
        # and the part has no attempt limit: every one of them must be stored.
        return f"-0.{self.number}{seq:05d}1"

    def send(self, text: str, deadline: Callable[[], bool]) -> None:
        """Send `text` until the service takes it, resending what the refusal kept."""
        self.tally.sent.append(text)
        key = f"{self.user.pk}-{text}"
        post: tuple[str, dict[str, str]] = (self.answer_url, {"answer": text})
        refusals = 0
        while not deadline():
            self.tally.requests += 1
            if self.kind == "api":
                response = self.client.post(self.api_url, {"part": self.part.pk, "answer": text},
                                            format="json", HTTP_IDEMPOTENCY_KEY=key)
            elif self.kind == "script":
                response = self.client.post(self.answer_url, {"answer": text},
                                            HTTP_X_ANSWER_FRAGMENT="1")
            else:
                response = self.client.post(*post)
            if self._taken(response):
                self.tally.taken.append(text)
                return
            refused = self._refused_kept(response, text)
            if refused is None:
                self.tally.failures.append(f"{text}: HTTP {response.status_code} "
                                           f"{response.get('Location', '')} "
                                           f"{response.content[:200]!r}")
                return
            self.tally.refused_kept += 1
            if not refusals:
                self.tally.refused_answers += 1  # an answer told "not saved" at least once
            refusals += 1
            post = refused
            time.sleep(RESEND_SECONDS)
        self.tally.failures.append(f"{text}: still not taken at the deadline")

    def _taken(self, response: Any) -> bool:
        if self.kind == "api":
            return bool(response.status_code == 201 and response.json()["answer"])
        if self.kind == "script":  # the part's new state, without a refusal in it
            page = response.content.decode()
            return bool(response.status_code == 200 and f'id="part-{self.part.pk}"' in page
                        and "part-notice" not in page)
        # Back to the part on the module page (a redirect elsewhere, e.g. to sign in, is not),
        # with no refusal message for it.
        return bool(response.status_code == 302
                    and response["Location"].endswith(f"#part-{self.part.pk}")
                    and not list(get_messages(response.wsgi_request)))

    def _refused_kept(self, response: Any, text: str) -> tuple[str, dict[str, str]] | None:
        """What to send next if `response` refused the answer as not saved and kept it."""
        if response.status_code != 503 or not response.get("Retry-After"):
            return None
        if self.kind in ("api", "script"):
            return (self.answer_url, {"answer": text}) if response.json().get("saved") is False else None
        page = response.content.decode()
        form = kept_form(page)
        if "NOT saved" not in page or form.fields.get("answer") != text:
            return None
        return form.action, form.fields  # the page's own form, as the student resends it

    def run(self, stop: threading.Event, drain_until: list[float]) -> None:
        try:
            seq = 0
            while not stop.is_set():
                self.send(self.text(seq), lambda: bool(drain_until)
                          and time.monotonic() > drain_until[0])
                seq += 1
                time.sleep(PACE_SECONDS)
        except Exception as exc:
            self.tally.failures.append(f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")
        finally:
            connection.close()


@pytest.fixture
def students(settings, course, module_05) -> list[Student]:
    """Four students of the course answering one numeric part with no attempt limit."""
    # The production window in which the same text sent again is recognised (an answer whose
    # commit the cut made uncertain, resent once the database is back, is not stored twice).
    settings.SUBMISSION_RECOVERY_SECONDS = 120
    part = Part.objects.select_related("exercise").get(
        exercise__slug="apply-1-gradient-bound", key="bound")
    Exercise.objects.filter(pk=part.exercise_id).update(max_attempts=0)
    part.refresh_from_db()
    made = []
    for number, kind in enumerate(("form", "form", "script", "api"), start=1):
        user = UserFactory(username=f"stream-{number}")
        EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
        made.append(Student(kind, number, user, course, part))
    return made


@pytest.mark.parametrize("cut_seconds", [10, 60])
def test_every_answer_is_stored_once_or_refused_with_its_text_kept_through_a_cut(
        proxied_database, students, cut_seconds) -> None:
    stop = threading.Event()
    drain_until: list[float] = []
    threads = [threading.Thread(target=s.run, args=(stop, drain_until)) for s in students]
    for thread in threads:
        thread.start()
    time.sleep(BEFORE_SECONDS)
    proxied_database.cut()
    time.sleep(cut_seconds)  # the outage itself
    proxied_database.restore()
    time.sleep(AFTER_SECONDS)
    stop.set()
    drain_until.append(time.monotonic() + DRAIN_SECONDS)
    for thread in threads:
        thread.join(DRAIN_SECONDS + 10)
    assert not any(thread.is_alive() for thread in threads)

    failures = [f for s in students for f in s.tally.failures]
    assert failures == []
    connection.close()  # this thread's connection was cut too
    # Answers the cut caught after they were stored but before they were graded are graded
    # by the recovery sweep (run here at once instead of after its delay).
    submissions_recover(older_than=timedelta(0))
    stored = Counter(Submission.objects.filter(part=students[0].part)
                     .values_list("student_id", "raw_answer"))
    sent = Counter((s.user.pk, text) for s in students for text in s.tally.sent)
    assert stored == sent  # each answer sent is stored, exactly once
    assert not Submission.objects.filter(outcome=Submission.Outcome.PENDING).exists()
    refused = sum(s.tally.refused_kept for s in students)
    assert refused >= len(students)  # every student met the outage, and was told
    figures = {"cut_seconds": cut_seconds, "answers_sent": sum(sent.values()),
               "stored_once": sum(stored.values()),
               "requests": sum(s.tally.requests for s in students),
               "answers_refused_then_resent": sum(s.tally.refused_answers for s in students),
               "refusals_not_saved_text_kept": refused, "lost": sum((sent - stored).values()),
               "stored_twice": sum(1 for n in stored.values() if n > 1)}
    print("database outage figures:", figures)
