"""What a start and an autosave cost in queries: the two requests a whole class sends in the
same minute (tests/benchmarks/test_exam_rush.py measures their times). Both are constant in
the number of questions on the paper."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from exams.models import Assessment, Attempt
from tests.exams.conftest import QuizCourse
from tests.exams.test_attempts import right_answers

pytestmark = pytest.mark.django_db

#: The enrolment with its course and the assessment with its link (the page's two compiled
#: reads), the student's standing and attempts (start's two compiled reads), the attempt and
#: its audit entry inserted, and the transaction's savepoint and release.
START_QUERIES = 8
#: The attempt, then in one transaction: the attempt locked, the question of the field, the
#: attempt's answers, the draft written; and the savepoint and release.
SAVE_QUERIES = 7


def _every_question_drawn(assessment: Assessment) -> None:
    assessment.zones = [{**zone, "draw": len(zone["questions"])} for zone in assessment.zones]
    assessment.save(update_fields=["zones"])


def _start_counted(quiz: QuizCourse) -> tuple[int, Attempt]:
    client = Client()
    client.force_login(quiz.student)
    client.get(reverse("exams:list", args=[quiz.course.slug]))  # the session and user cached
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("exams:start", args=[quiz.course.slug, "quiz-1"]))
    assert response.status_code == 302
    return len(queries), Attempt.objects.get(student=quiz.student)


def _save_counted(quiz: QuizCourse, attempt: Attempt) -> int:
    client = Client()
    client.force_login(quiz.student)
    (question, key), value = next(iter(right_answers(attempt).items()))
    url = reverse("exams:save", args=[quiz.course.slug, attempt.pk])
    client.post(url, {f"q{question}-{key}": "a first draft"}, headers={"X-Exam-Save": "1"})
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, {f"q{question}-{key}": value},
                               headers={"X-Exam-Save": "1"})
    assert response.status_code == 200
    return len(queries)


def test_a_start_costs_a_fixed_number_of_queries(quiz_course):
    count, attempt = _start_counted(quiz_course)
    assert len(attempt.paper) == 2
    assert count == START_QUERIES


def test_a_start_costs_the_same_with_every_question_of_the_pools_on_the_paper(quiz_course):
    _every_question_drawn(quiz_course.assessment)
    count, attempt = _start_counted(quiz_course)
    assert len(attempt.paper) == 5
    assert count == START_QUERIES


def test_an_autosave_costs_a_fixed_number_of_queries(quiz_course):
    _, attempt = _start_counted(quiz_course)
    assert _save_counted(quiz_course, attempt) == SAVE_QUERIES


def test_an_autosave_costs_the_same_on_a_paper_of_every_question(quiz_course):
    _every_question_drawn(quiz_course.assessment)
    _, attempt = _start_counted(quiz_course)
    assert _save_counted(quiz_course, attempt) == SAVE_QUERIES
