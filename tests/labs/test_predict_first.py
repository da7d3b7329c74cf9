""""Predict first": a lab that grades a prediction runs for a student only after they made
it, on the web and through the API alike (one rule, in labs.services)."""

import pytest
from django.test import Client

from courses.models import Lab, Part
from grading.services import submission_create
from labs.models import LabRun
from labs.services import LabRunRefused, lab_run_request
from tests.factories import predictions_made

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lab_slug", ["word-vectors", "attention"])
def test_a_student_cannot_run_a_lab_before_making_the_prediction_it_answers(course, alice, lab_slug):
    lab = Lab.objects.get(slug=lab_slug)
    with pytest.raises(LabRunRefused, match="Predict first"):
        lab_run_request(lab=lab, course=course, requester=alice, params={})
    assert not LabRun.objects.exists()


def test_the_api_refuses_with_409_and_never_shows_the_measurement(course, alice) -> None:
    client = Client()
    client.force_login(alice)
    response = client.post(f"/api/v1/courses/{course.slug}/lab-runs/",
                           {"lab": "word-vectors", "params": {}}, content_type="application/json")
    assert response.status_code == 409
    assert response.json()["code"] == "predict_first"
    assert "queen" not in response.content.decode()
    assert not LabRun.objects.exists()


def test_the_web_form_refuses_too(course, alice) -> None:
    client = Client()
    client.force_login(alice)
    response = client.post(f"/courses/{course.slug}/labs/word-vectors/", {})
    assert response.status_code == 409
    assert "Predict first" in response.content.decode()
    assert not LabRun.objects.exists()


def test_after_predicting_the_student_may_run_the_lab(course, alice, django_capture_on_commit_callbacks):
    part = Part.objects.get(exercise__slug="predict-analogy", key="endpoint")
    with django_capture_on_commit_callbacks():
        submission_create(student=alice, course=course, part=part, raw_answer="woman")
    run = lab_run_request(lab=Lab.objects.get(slug="word-vectors"), course=course, requester=alice,
                          params={})
    assert run.submission_id is None and run.requester == alice


def test_labs_without_predictions_and_staff_are_not_held_back(course, alice, irene) -> None:
    assert lab_run_request(lab=Lab.objects.get(slug="rnn"), course=course, requester=alice, params={})
    assert lab_run_request(lab=Lab.objects.get(slug="word-vectors"), course=course, requester=irene,
                           params={})


def test_the_web_form_holds_a_student_back_and_lets_staff_run_with_the_page_s_enrolment(
        course, alice, irene, django_assert_max_num_queries) -> None:
    """The form passes the enrolment's role it read with the lab: no second membership read,
    and the rule still holds for each role."""
    student, staff = Client(), Client()
    student.force_login(alice)
    staff.force_login(irene)
    url = f"/courses/{course.slug}/labs/word-vectors/"
    assert student.post(url, {}).status_code == 409
    with django_assert_max_num_queries(9) as queries:
        assert staff.post(url, {}).status_code == 302
    assert not [q for q in queries.captured_queries
                if "courses_enrollment" in q["sql"] and "instructor" in q["sql"]]
    assert list(LabRun.objects.values_list("requester__username", flat=True)) == ["irene"]


def test_a_key_acting_for_a_student_follows_the_students_rule(course, alice, irene):
    from rest_framework.test import APIClient

    from api.keys import api_key_create

    token = api_key_create(course=course, name="LMS", role="lms", created_by=irene).token
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    url = f"/api/v1/courses/{course.slug}/lab-runs/"
    refused = client.post(url, {"lab": "word-vectors", "student": alice.pk}, format="json")
    assert refused.status_code == 409
    predictions_made(student=alice, course=course, lab_slug="word-vectors")
    assert client.post(url, {"lab": "word-vectors", "student": alice.pk}, format="json").status_code == 202


@pytest.mark.parametrize("unreadable", ["((", "   ", "queen))"])
def test_an_unreadable_prediction_does_not_unlock_the_lab(course, alice, unreadable,
                                                          django_capture_on_commit_callbacks):
    part = Part.objects.select_related("exercise").get(exercise__slug="predict-analogy",
                                                       key="endpoint")
    with django_capture_on_commit_callbacks(execute=True):
        stored = submission_create(student=alice, course=course, part=part, raw_answer=unreadable)
    assert stored.outcome == "invalid" and not stored.counts_as_attempt
    with pytest.raises(LabRunRefused, match="Predict first"):
        lab_run_request(lab=Lab.objects.get(slug="word-vectors"), course=course, requester=alice,
                        params={})
    assert not LabRun.objects.exists()
