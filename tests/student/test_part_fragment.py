"""The part's fragment by GET: what the module page's script swaps in when a prediction's
lab run has finished (instead of reloading the page, issue 37); the student's own state
only, and a part of another course's module is not found."""

import pytest
from django.urls import reverse

from courses.models import Part
from grading.services import submission_create
from labs.models import LabRun
from labs.predictions import lab_run_execute_and_grade

pytestmark = pytest.mark.django_db


def _shape() -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug="predict-alignment-shape",
                                                       key="shape")


def test_a_waiting_prediction_names_its_fragment_and_the_fragment_shows_the_verdict(
        client, alice, course, django_capture_on_commit_callbacks):
    part = _shape()
    with django_capture_on_commit_callbacks():
        submission_create(student=alice, course=course, part=part,
                          raw_answer="diagonal-with-crossing")
    client.force_login(alice)
    url = reverse("part-fragment", args=[course.slug, part.pk])
    waiting = client.get(url).content.decode()
    assert waiting.startswith(f'<div class="part" id="part-{part.pk}"')
    assert f'data-refresh="{url}"' in waiting and "data-poll=" in waiting

    lab_run_execute_and_grade(run_id=LabRun.objects.get(submission__isnull=False).pk)
    done = client.get(url).content.decode()
    assert "data-poll=" not in done and 'class="measured"' in done and "Correct" in done


def test_another_courses_student_gets_no_fragment(client, oscar, course):
    client.force_login(oscar)
    response = client.get(reverse("part-fragment", args=[course.slug, _shape().pk]))
    assert response.status_code == 404


def test_a_prediction_is_marked_due_until_it_is_committed(
        client, alice, course, django_capture_on_commit_callbacks):
    """The page's script unfolds a section's figures once no part of it is marked due
    (config/static/grader.js), as the page itself does when loaded again."""
    part = _shape()
    client.force_login(alice)
    url = reverse("part-fragment", args=[course.slug, part.pk])
    assert "data-prediction-due" in client.get(url).content.decode()
    with django_capture_on_commit_callbacks():
        submission_create(student=alice, course=course, part=part,
                          raw_answer="diagonal-with-crossing")
    assert "data-prediction-due" not in client.get(url).content.decode()
