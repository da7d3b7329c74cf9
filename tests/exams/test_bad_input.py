"""Bad input to the exam pages: a start outside the window, after the close (the student's
own, when extended), with a wrong access code, or a second start, and each staff action given
numbers out of bounds or words for numbers. Each gets a clear message and changes nothing in
the database (every exam table compared before and after)."""

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from exams.models import (
    Accommodation,
    Answer,
    Attempt,
    AuditEntry,
    Proctoring,
    Release,
    WindowExtension,
)
from exams.services import attempt_close
from exams.staff import access_code_set, window_extend

pytestmark = pytest.mark.django_db


def exam_tables() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table an exam action writes, as comparable tuples."""
    return {model.__name__: sorted(model.objects.values_list(), key=lambda row: row[0])
            for model in (Accommodation, Answer, Attempt, AuditEntry, Proctoring, Release,
                          WindowExtension)}


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _start(quiz, **data: str):
    url = reverse("exams:start", args=[quiz.course.slug, quiz.assessment.slug])
    return _client(quiz.student).post(url, data, follow=True)


def _move_window(quiz, *, opens: timedelta, closes: timedelta) -> None:
    now = timezone.now()
    quiz.assessment.opens_at, quiz.assessment.closes_at = now + opens, now + closes
    quiz.assessment.save(update_fields=["opens_at", "closes_at"])


def test_a_start_before_the_window_opens_says_when_and_changes_nothing(quiz_course):
    _move_window(quiz_course, opens=timedelta(hours=1), closes=timedelta(hours=2))
    before = exam_tables()
    page = _start(quiz_course)
    assert "This assessment opens on" in page.content.decode()
    assert exam_tables() == before


def test_a_start_after_the_close_says_it_closed_and_changes_nothing(quiz_course):
    _move_window(quiz_course, opens=timedelta(hours=-2), closes=timedelta(minutes=-1))
    before = exam_tables()
    page = _start(quiz_course)
    assert "This assessment closed on" in page.content.decode()
    assert exam_tables() == before


def test_a_start_after_the_students_extended_close_is_refused_too(quiz_course):
    _move_window(quiz_course, opens=timedelta(hours=-3), closes=timedelta(hours=1))
    window_extend(assessment=quiz_course.assessment, course=quiz_course.course,
                  student=quiz_course.student,
                  closes_at=quiz_course.assessment.closes_at + timedelta(hours=1),
                  reason="a clash", by=quiz_course.instructor)
    _move_window(quiz_course, opens=timedelta(hours=-3), closes=timedelta(hours=-2))
    WindowExtension.objects.update(closes_at=timezone.now() - timedelta(minutes=5))
    before = exam_tables()
    page = _start(quiz_course)
    assert "This assessment closed on" in page.content.decode()
    assert exam_tables() == before


def test_a_wrong_access_code_on_the_page_is_refused_and_changes_nothing(quiz_course):
    access_code_set(assessment=quiz_course.assessment, course=quiz_course.course,
                    code="heron", by=quiz_course.instructor)
    before = exam_tables()
    page = _start(quiz_course, access_code="egret")
    assert "That is not the access code of this assessment" in page.content.decode()
    assert exam_tables() == before


def test_a_second_start_finds_the_attempt_in_progress_and_creates_nothing(quiz_course):
    _start(quiz_course)
    before = exam_tables()
    page = _start(quiz_course)
    assert "already in progress" in page.content.decode()
    assert exam_tables() == before
    assert Attempt.objects.count() == 1


def test_a_start_with_no_attempt_left_says_so_and_changes_nothing(quiz_course):
    _start(quiz_course)
    attempt_close(attempt_id=Attempt.objects.get().pk, by=Attempt.ClosedBy.STUDENT)
    before = exam_tables()
    page = _start(quiz_course)
    assert "You have used your 1 attempt at this assessment." in page.content.decode()
    assert exam_tables() == before


def _staff_post(quiz, action: str, data: dict[str, str], *args: int) -> str:
    url = reverse(f"exams:{action}", args=[quiz.course.slug, quiz.assessment.slug, *args])
    return _client(quiz.instructor).post(url, data, follow=True).content.decode()


@pytest.mark.parametrize(("data", "message"), [
    ({"username": "student", "time_factor": "50", "extra_attempts": "1"},
     "Time factor: Ensure this value is less than or equal to 5.0."),
    ({"username": "student", "time_factor": "1.5", "extra_attempts": "99999999999999"},
     "Extra attempts: Ensure this value is less than or equal to 20."),
    ({"username": "student", "time_factor": "1.5", "extra_attempts": "-1"},
     "Extra attempts: Ensure this value is greater than or equal to 0."),
    ({"username": "student", "time_factor": "lots", "extra_attempts": "1"},
     "Time factor: Enter a number."),
    ({"username": "nobody", "time_factor": "1.5", "extra_attempts": "1"},
     "No student has that user name."),
])
def test_an_accommodation_out_of_bounds_names_the_field_and_changes_nothing(
        quiz_course, data, message):
    before = exam_tables()
    assert message in _staff_post(quiz_course, "accommodation", data)
    assert exam_tables() == before


@pytest.mark.parametrize(("data", "message"), [
    ({"minutes": "ten", "reason": "power cut"}, "Minutes: Enter a whole number."),
    ({"minutes": "601", "reason": "power cut"},
     "Minutes: Ensure this value is less than or equal to 600."),
    ({"minutes": "10", "reason": ""}, "Reason: This field is required."),
])
def test_a_reopen_with_bad_minutes_or_no_reason_changes_nothing(quiz_course, data, message):
    _start(quiz_course)
    attempt = attempt_close(attempt_id=Attempt.objects.get().pk, by=Attempt.ClosedBy.STUDENT)
    before = exam_tables()
    assert message in _staff_post(quiz_course, "reopen", data, attempt.pk)
    assert exam_tables() == before


@pytest.mark.parametrize(("data", "message"), [
    ({"username": "student", "closes_at": "next tuesday", "reason": "ill"},
     "New close: Enter a valid date/time."),
    ({"username": "student", "closes_at": "2036-01-01T08:00", "reason": "ill"},
     "The new close must be after the assessment"),
])
def test_an_extension_with_a_bad_date_changes_nothing(quiz_course, data, message):
    before = exam_tables()
    assert message in _staff_post(quiz_course, "extension", data)
    assert exam_tables() == before


def test_an_access_code_too_long_changes_nothing(quiz_course):
    before = exam_tables()
    page = _staff_post(quiz_course, "access-code", {"access_code": "x" * 41})
    assert "Access code: Ensure this value has at most 40 characters (it has 41)." in page
    assert exam_tables() == before
