"""The exam accommodations, window extensions and reopening through the REST API: who may
(instructors and LMS keys set accommodations and extensions, TAs reopen, read-only keys and
students never write, another course's instructor sees a 404), what bad input gets (a 400
naming the field, a 409 saying why), and that each write lands as the pages' would."""

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from api.keys import api_key_create
from api.models import ApiKey
from courses.models import Course, Enrollment
from exams.models import Accommodation, Attempt, AuditEntry, WindowExtension
from exams.services import attempt_close, attempt_start
from tests.exams.conftest import quiz_course  # noqa: F401 - the fixture
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def _as(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _key(quiz, role: str) -> APIClient:
    token = api_key_create(course=quiz.course, name=role, role=role,
                           created_by=quiz.instructor).token
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def _url(quiz, tail: str) -> str:
    return f"/api/v1/courses/{quiz.course.slug}/{tail}"


def test_an_instructor_and_an_lms_key_set_an_accommodation_that_the_next_attempt_uses(
        quiz_course):  # noqa: F811
    url = _url(quiz_course, f"accommodations/{quiz_course.student.pk}/")
    answer = _as(quiz_course.instructor).put(url, {"time_factor": 1.5, "extra_attempts": 1},
                                             format="json")
    assert answer.status_code == 200
    assert answer.json() == {"student": quiz_course.student.pk, "username": "student",
                             "time_factor": 1.5, "extra_attempts": 1}
    assert _key(quiz_course, ApiKey.Role.LMS).put(
        url, {"time_factor": 2, "extra_attempts": 0}, format="json").status_code == 200
    listed = _key(quiz_course, ApiKey.Role.READ_ONLY).get(_url(quiz_course, "accommodations/"))
    assert [row["time_factor"] for row in listed.json()["results"]] == [2.0]
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment).attempt
    assert attempt.deadline_at - attempt.started_at == timedelta(minutes=40)


@pytest.mark.parametrize(("body", "field"), [
    ({"time_factor": 9, "extra_attempts": 0}, "time_factor"),
    ({"time_factor": 0.5, "extra_attempts": 0}, "time_factor"),
    ({"time_factor": 1.5, "extra_attempts": 21}, "extra_attempts"),
    ({"time_factor": 1.5, "extra_attempts": 2**70}, "extra_attempts"),
    ({"time_factor": "long", "extra_attempts": 1}, "time_factor"),
])
def test_an_accommodation_out_of_bounds_is_a_400_naming_the_field_and_changes_nothing(
        quiz_course, body, field):  # noqa: F811
    answer = _as(quiz_course.instructor).put(
        _url(quiz_course, f"accommodations/{quiz_course.student.pk}/"), body, format="json")
    assert answer.status_code == 400 and field in answer.json()["fields"]
    assert not Accommodation.objects.exists()


def test_who_may_set_accommodations_and_extensions(quiz_course):  # noqa: F811
    ta = UserFactory(username="ta")
    EnrollmentFactory(course=quiz_course.course, user=ta, role=Enrollment.Role.TA)
    stranger = UserFactory(username="elsewhere")
    other = Course.objects.create(slug="other", title="Other", module=quiz_course.course.module)
    EnrollmentFactory(course=other, user=stranger, role=Enrollment.Role.INSTRUCTOR)
    put = (_url(quiz_course, f"accommodations/{quiz_course.student.pk}/"),
           {"time_factor": 1.5, "extra_attempts": 0})
    post = (_url(quiz_course, "exam-extensions/"),
            {"assessment": "quiz-1", "student": quiz_course.student.pk, "reason": "ill",
             "closes_at": (quiz_course.assessment.closes_at + timedelta(days=1)).isoformat()})
    for client, expected in ((_as(quiz_course.student), 403), (_as(ta), 403),
                             (_key(quiz_course, ApiKey.Role.READ_ONLY), 403),
                             (_as(stranger), 404)):
        assert client.put(put[0], put[1], format="json").status_code == expected
        assert client.post(post[0], post[1], format="json").status_code == expected
    assert not Accommodation.objects.exists() and not WindowExtension.objects.exists()
    answer = _key(quiz_course, ApiKey.Role.LMS).post(post[0], post[1], format="json")
    assert answer.status_code == 201 and answer.json()["username"] == "student"
    extension = WindowExtension.objects.get()
    assert extension.by == quiz_course.instructor and "(API key" in extension.reason
    listed = _as(ta).get(post[0] + "?assessment=quiz-1").json()["results"]
    assert [row["student"] for row in listed] == [quiz_course.student.pk]


def test_an_extension_past_30_days_is_a_409_and_an_unknown_assessment_a_404(
        quiz_course):  # noqa: F811
    client = _as(quiz_course.instructor)
    late = quiz_course.assessment.closes_at + timedelta(days=31)
    answer = client.post(_url(quiz_course, "exam-extensions/"),
                         {"assessment": "quiz-1", "student": quiz_course.student.pk,
                          "reason": "ill", "closes_at": late.isoformat()}, format="json")
    assert answer.status_code == 409 and "30 days" in answer.json()["message"]
    assert client.get(_url(quiz_course, "exam-extensions/?assessment=no-such")).status_code == 404
    assert not WindowExtension.objects.exists()


def test_a_ta_reopens_an_attempt_with_a_reason_and_an_open_one_is_a_409(
        quiz_course):  # noqa: F811
    ta = UserFactory(username="ta")
    EnrollmentFactory(course=quiz_course.course, user=ta, role=Enrollment.Role.TA)
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment).attempt
    url = _url(quiz_course, f"assessments/quiz-1/attempts/{attempt.pk}/reopen/")
    client = _as(ta)
    still_open = client.post(url, {"minutes": 10, "reason": "power cut"}, format="json")
    assert still_open.status_code == 409 and "still open" in still_open.json()["message"]
    attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT)
    for body, field in (({"minutes": 0, "reason": "x"}, "minutes"),
                        ({"minutes": 10, "reason": ""}, "reason"),
                        ({"minutes": "ten", "reason": "x"}, "minutes")):
        answer = client.post(url, body, format="json")
        assert answer.status_code == 400 and field in answer.json()["fields"]
    assert _as(quiz_course.student).post(url, {"minutes": 10, "reason": "x"},
                                         format="json").status_code == 403
    answer = client.post(url, {"minutes": 10, "reason": "power cut"}, format="json")
    assert answer.status_code == 200 and answer.json()["number"] == 1
    attempt.refresh_from_db()
    assert attempt.closed_at is None
    assert AuditEntry.objects.get(action="reopen").detail == "10 min: power cut"
    missing = _url(quiz_course, "assessments/quiz-1/attempts/999999/reopen/")
    assert client.post(missing, {"minutes": 10, "reason": "x"}, format="json").status_code == 404
