"""The exam pages: a student starts, saves (with and without the script), reloads and finds
every draft, submits and gets a read-only review showing only what the policy allows; nobody
opens another student's attempt; no key or correctness while the attempt is open."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from exams.models import Answer, Attempt, Release
from tests.exams.test_attempts import right_answers
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _start(client: Client, quiz) -> Attempt:
    response = client.post(reverse("exams:start", args=[quiz.course.slug, "quiz-1"]))
    attempt = Attempt.objects.get(student=quiz.student)
    assert response["Location"] == reverse("exams:attempt", args=[quiz.course.slug, attempt.pk])
    return attempt


def _fields(attempt: Attempt) -> dict[str, str]:
    return {f"q{q}-{k}": v for (q, k), v in right_answers(attempt).items()}


def test_the_paper_shows_the_end_time_and_saved_drafts_but_no_key_or_score(quiz_course):
    client = _client(quiz_course.student)
    attempt = _start(client, quiz_course)
    fields = _fields(attempt)
    name, value = next(iter(fields.items()))
    response = client.post(reverse("exams:save", args=[quiz_course.course.slug, attempt.pk]),
                           {name: value}, headers={"X-Exam-Save": "1"})
    assert response.status_code == 200 and "saved_at" in response.json()
    page = client.get(reverse("exams:attempt", args=[quiz_course.course.slug, attempt.pk]))
    html = page.content.decode()
    assert "This attempt ends at" in html and attempt.deadline_at.strftime("%H:%M") in html
    assert re.search(rf'name="{re.escape(name)}" value="{re.escape(value)}"', html)
    assert 'aria-live="polite"' in html and "exams/attempt.js" in html
    assert "Score" not in html and "Key" not in html and "correct" not in html


def test_without_script_save_posts_the_form_and_submit_closes_it_read_only(quiz_course):
    client = _client(quiz_course.student)
    attempt = _start(client, quiz_course)
    fields = _fields(attempt)
    slug = quiz_course.course.slug
    saved = client.post(reverse("exams:save", args=[slug, attempt.pk]), fields, follow=True)
    assert "Saved at" in saved.content.decode()
    assert Answer.objects.filter(attempt=attempt).count() == 2
    client.post(reverse("exams:submit", args=[slug, attempt.pk]), {})
    attempt.refresh_from_db()
    assert attempt.closed_by == Attempt.ClosedBy.STUDENT and attempt.score == pytest.approx(1.0)
    review = client.get(reverse("exams:attempt", args=[slug, attempt.pk])).content.decode()
    assert "<input" not in review.split('id="main"')[1]  # read-only: no field to type in
    assert "Score: 1" in review  # feedback = after_submit
    assert "Key" not in review  # key = on_release, not released
    late = client.post(reverse("exams:save", args=[slug, attempt.pk]),
                       {k: "7" for k in fields}, headers={"X-Exam-Save": "1"})
    assert late.status_code == 409 and late.json()["closed"] is True
    assert not Answer.objects.filter(raw="7").exists()


def test_the_key_appears_only_once_released(quiz_course):
    client = _client(quiz_course.student)
    attempt = _start(client, quiz_course)
    slug = quiz_course.course.slug
    client.post(reverse("exams:submit", args=[slug, attempt.pk]), _fields(attempt))
    assert "Key" not in client.get(reverse("exams:attempt", args=[slug, attempt.pk])).content.decode()
    Release.objects.create(assessment=quiz_course.assessment, course=quiz_course.course,
                           feedback=True, key=True, by=quiz_course.instructor)
    review = client.get(reverse("exams:attempt", args=[slug, attempt.pk])).content.decode()
    assert "<dt>Key</dt>" in review


def test_no_one_opens_or_saves_into_another_students_attempt(quiz_course):
    attempt = _start(_client(quiz_course.student), quiz_course)
    other = UserFactory(username="other")
    EnrollmentFactory(course=quiz_course.course, user=other)
    client = _client(other)
    slug = quiz_course.course.slug
    assert client.get(reverse("exams:attempt", args=[slug, attempt.pk])).status_code == 404
    assert client.post(reverse("exams:save", args=[slug, attempt.pk]),
                       _fields(attempt)).status_code == 404
    assert client.post(reverse("exams:submit", args=[slug, attempt.pk])).status_code == 404
    assert not Answer.objects.exists()


def test_a_refused_start_says_why_on_the_assessment_page(quiz_course):
    client = _client(quiz_course.student)
    attempt = _start(client, quiz_course)
    client.post(reverse("exams:submit", args=[quiz_course.course.slug, attempt.pk]))
    page = client.post(reverse("exams:start", args=[quiz_course.course.slug, "quiz-1"]),
                       follow=True).content.decode()
    assert "You have used your 1 attempt at this assessment." in page
    assert Attempt.objects.count() == 1


def test_a_non_member_gets_no_page(quiz_course):
    client = _client(UserFactory(username="stranger"))
    assert client.get(reverse("exams:assessment", args=[quiz_course.course.slug, "quiz-1"])) \
        .status_code == 404
    assert client.get(reverse("exams:list", args=[quiz_course.course.slug])).status_code == 404


def test_a_save_costs_a_bounded_number_of_queries(quiz_course, django_assert_max_num_queries):
    client = _client(quiz_course.student)
    attempt = _start(client, quiz_course)
    name, value = next(iter(_fields(attempt).items()))
    url = reverse("exams:save", args=[quiz_course.course.slug, attempt.pk])
    client.post(url, {name: "1"}, headers={"X-Exam-Save": "1"})
    with django_assert_max_num_queries(10):
        response = client.post(url, {name: value}, headers={"X-Exam-Save": "1"})
    assert response.status_code == 200


def test_the_course_page_links_to_the_quizzes_when_the_course_has_some(quiz_course):
    """The overview page of a course of several modules (a course of one module shows its
    module page, whose query budget has no room for it: the link is not there yet)."""
    from courses.models import CourseModule, Module

    other = Module.objects.create(slug="other-module", number="10", title="Another")
    CourseModule.objects.create(course=quiz_course.course, module=other, order=1)
    page = _client(quiz_course.student).get(
        reverse("course-module", args=[quiz_course.course.slug])).content.decode()
    assert f'href="/courses/{quiz_course.course.slug}/assessments/">Quizzes and exams</a> (1)' \
        in page
