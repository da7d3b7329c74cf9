"""Assessment scores in the gradebook: the instructor's matrix and student page, the CSV export
and the REST API carry each assessment's score with its weight; staff see an unreleased score
marked so, the course total counts it only once released, and a student's own row never shows
it before; all at a fixed number of queries whatever the size of the class."""

from datetime import timedelta
from typing import cast

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from courses.models import CourseModule, Enrollment
from courses.services import ContentInvalid, content_sync
from exams.models import Assessment, AssessmentScore
from exams.services import attempt_close, attempt_start, drafts_save
from exams.staff import feedback_release
from grading.gradebook import gradebook
from grading.gradebook_items import item_fraction
from instructor.exports import gradebook_csv
from tests.exams.conftest import small_module_with_quiz
from tests.exams.test_attempts import right_answers
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _on_release(quiz_course) -> Assessment:
    assessment = quiz_course.assessment
    assessment.feedback = Assessment.Feedback.ON_RELEASE
    assessment.weight = 2.0
    assessment.save(update_fields=["feedback", "weight"])
    return assessment


def _submitted(quiz_course, student=None):
    student = student or quiz_course.student
    attempt = attempt_start(student=student, course=quiz_course.course,
                            assessment=quiz_course.assessment).attempt
    drafts_save(attempt_id=attempt.pk, student=student, drafts=right_answers(attempt))
    return attempt_close(attempt_id=attempt.pk, by="student")


def _release(quiz_course) -> None:
    feedback_release(assessment=quiz_course.assessment, course=quiz_course.course,
                     by=quiz_course.instructor, feedback=True, key=False)


def test_staff_see_the_score_marked_unreleased_and_the_total_counts_it_once_released(
        quiz_course):
    assessment = _on_release(quiz_course)
    _submitted(quiz_course)

    book = gradebook(course=quiz_course.course)
    [item] = book.items
    assert (item.slug, item.weight, item.kind) == ("quiz-1", 2.0, "quiz")
    [row] = book.rows
    cell = row.items[assessment.pk]
    assert cell.score == pytest.approx(1.0) and not cell.released
    assert row.course_percent(book.columns, book.items) is None  # nothing counts yet

    _release(quiz_course)
    book = gradebook(course=quiz_course.course)
    [row] = book.rows
    assert row.items[assessment.pk].released
    assert row.course_percent(book.columns, book.items) == pytest.approx(100.0)


def test_the_course_total_weighs_a_module_and_an_assessment(quiz_course, module_05):
    """Module 5's parts (weight 1, nothing earned) beside the quiz (weight 2, full marks):
    (1 x 0 + 2 x 1) / 3."""
    CourseModule.objects.create(course=quiz_course.course, module=module_05, order=2)
    _on_release(quiz_course)
    _submitted(quiz_course)
    _release(quiz_course)
    book = gradebook(course=quiz_course.course)
    [row] = book.rows
    assert row.course_percent(book.columns, book.items) == pytest.approx(200.0 / 3)


def test_a_student_without_an_attempt_counts_zero_once_the_window_closed(quiz_course):
    [item] = gradebook(course=quiz_course.course).items
    assert item_fraction(item, None, timezone.now()) is None
    assert item_fraction(item, None, item.closes_at + timedelta(seconds=1)) == 0.0


def test_the_csv_export_has_the_score_and_whether_it_is_released(quiz_course):
    _on_release(quiz_course)
    _submitted(quiz_course)
    header, row = [line.split(",") for line in "".join(
        gradebook_csv(course=quiz_course.course)).strip().splitlines()
        if not line.startswith("teacher")]
    cells = dict(zip(header, row, strict=True))
    assert cells["quiz-1 %"] == "100.00" and cells["quiz-1 released"] == "no"
    assert cells["course_percent"] == ""

    _release(quiz_course)
    lines = "".join(gradebook_csv(course=quiz_course.course)).strip().splitlines()
    cells = dict(zip(lines[0].split(","), lines[1].split(","), strict=True))
    assert cells["quiz-1 released"] == "yes" and cells["course_percent"] == "100.00"


def _api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _gradebook_url(course, tail: str = "") -> str:
    return f"/api/v1/courses/{course.slug}/gradebook/{tail}"


def test_the_api_gradebook_carries_the_score_with_its_weight(quiz_course):
    _on_release(quiz_course)
    _submitted(quiz_course)
    body = _api(quiz_course.instructor).get(_gradebook_url(quiz_course.course)).json()
    [assessment] = body["assessments"]
    assert assessment["slug"] == "quiz-1" and assessment["weight"] == 2.0
    assert "quiz 1" in body["total_formula"].lower()
    [row] = body["rows"]
    assert row["assessments"]["quiz-1"] == {"score": 1.0, "released": False, "attempts": 1,
                                            "in_progress": False}
    assert row["course_percent"] is None

    csv_text = b"".join(_api(quiz_course.instructor).get(
        _gradebook_url(quiz_course.course), {"format": "csv"}).streaming_content).decode()
    assert "quiz-1 %" in csv_text.splitlines()[0]


def test_students_never_see_an_unreleased_score_through_the_api(quiz_course):
    _on_release(quiz_course)
    _submitted(quiz_course)
    own = _gradebook_url(quiz_course.course, f"students/{quiz_course.student.pk}/")
    client = _api(quiz_course.student)
    [row] = client.get(own).json()["rows"]
    assert row["assessments"] == {} and row["course_percent"] is None
    csv_lines = b"".join(client.get(own, {"format": "csv"}).streaming_content).decode()
    header, line = csv_lines.strip().splitlines()
    assert dict(zip(header.split(","), line.split(","), strict=True))["quiz-1 %"] == ""

    # Staff reading the same row see it, marked unreleased.
    staff_row = _api(quiz_course.instructor).get(own).json()["rows"][0]
    assert staff_row["assessments"]["quiz-1"]["released"] is False

    _release(quiz_course)
    [row] = client.get(own).json()["rows"]
    assert row["assessments"]["quiz-1"]["score"] == 1.0
    assert row["course_percent"] == pytest.approx(100.0)


def _class(quiz_course, size: int, prefix: str) -> None:
    """`size` more students, each with a kept score (as closed attempts leave them)."""
    now = timezone.now()
    for number in range(size):
        student = cast(User, UserFactory(username=f"{prefix}{number}"))
        Enrollment.objects.create(course=quiz_course.course, user=student,
                                  role=Enrollment.Role.STUDENT)
        AssessmentScore.objects.create(assessment=quiz_course.assessment,
                                       course=quiz_course.course, student=student,
                                       score=0.5, attempts=1, released=number % 2 == 0,
                                       changed_at=now)


def _queries(fetch) -> int:
    fetch()  # the caches warm (session, user, content), as in a running service
    with CaptureQueriesContext(connection) as queries:
        fetch()
    return len(queries)


def _page(client, url) -> None:
    response = client.get(url)
    assert response.status_code == 200
    if response.streaming:
        b"".join(response.streaming_content)


@pytest.mark.parametrize("page", ["matrix", "gradebook-csv", "api", "student"])
def test_the_gradebook_pages_cost_the_same_queries_for_3_and_40_students(quiz_course, client,
                                                                        page):
    _class(quiz_course, 3, "a")
    course = quiz_course.course
    first = Enrollment.objects.filter(course=course, role="student").order_by("user_id").first()
    url = {"matrix": reverse("dashboard:matrix", kwargs={"course_slug": course.slug}),
           "gradebook-csv": reverse("dashboard:gradebook-csv",
                                    kwargs={"course_slug": course.slug}),
           "api": _gradebook_url(course),
           "student": reverse("dashboard:student", kwargs={"course_slug": course.slug,
                                                           "student_id": first.user_id}),
           }[page]
    client.force_login(quiz_course.instructor)
    small = _queries(lambda: _page(client, url))
    _class(quiz_course, 37, "b")
    assert _queries(lambda: _page(client, url)) == small
    if page in ("matrix", "student"):
        text = client.get(url).content.decode()
        assert "Quiz 1: recurrence" in text
        assert ("(not released)" if page == "matrix" else "Quizzes and exams") in text


def test_the_weight_comes_from_the_assessment_file_and_is_checked(tmp_path):
    folder = small_module_with_quiz(tmp_path)
    quiz = folder / "assessments" / "quiz-1.toml"
    text = quiz.read_text(encoding="utf-8")
    quiz.write_text(text.replace('kind = "quiz"', 'kind = "quiz"\nweight = 2.5'),
                    encoding="utf-8")
    content_sync(root=folder)
    assert Assessment.objects.get(slug="quiz-1").weight == 2.5

    quiz.write_text(text.replace('kind = "quiz"', 'kind = "quiz"\nweight = -1'),
                    encoding="utf-8")
    with pytest.raises(ContentInvalid) as refused:
        content_sync(root=folder)
    assert any("'weight' must be between 0 and 1000" in e.reason and e.line == 5
               and e.path.endswith("quiz-1.toml") for e in refused.value.errors), \
        refused.value.errors
