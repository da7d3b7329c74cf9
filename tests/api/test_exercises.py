"""Exercises through the API: students see their own variant and never an answer key."""

import json
from typing import Any

import pytest

from courses.models import Exercise, Part
from grading.variant_assignment import variant_for

pytestmark = pytest.mark.django_db

SECRET_KEYS = {"reference", "misconceptions", "rubric", "correct", "feedback_correct",
               "feedback_incorrect", "review_rubric", "measure", "lab_params", "answer", "phrasings"}


def all_keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in all_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in all_keys(v)}
    return set()


def secrets_of(spec: dict[str, Any]) -> list[str]:
    """Texts that would give an answer away: references, misconception answers and feedback,
    rubric phrasings, model answers (long enough to be unambiguous)."""
    texts = []
    reference = spec.get("reference")
    texts += reference if isinstance(reference, list) else [reference] if reference else []
    for item in spec.get("misconceptions", []):
        texts += [item.get("answer"), item.get("feedback"), *item.get("phrasings", [])]
    for concept in spec.get("rubric", []):
        texts += [concept.get("feedback_missing")]
    texts += [spec.get("feedback_correct"), spec.get("feedback_incorrect"), spec.get("review_rubric")]
    return [t for t in texts if isinstance(t, str) and len(t) >= 12]


def test_students_see_no_answer_key_in_any_exercise(course, alice, client_for) -> None:
    response = client_for(alice).get(f"/api/v1/courses/{course.slug}/exercises/?limit=100")
    assert response.status_code == 200
    exercises = response.json()["results"]
    assert len(exercises) == Exercise.objects.active().filter(module=course.module).count()
    text = response.content.decode()
    assert not all_keys(exercises) & SECRET_KEYS
    assert "parameters" not in text and "derived" not in text
    for part in Part.objects.active().filter(exercise__module=course.module):
        for secret in secrets_of(part.spec):
            assert json.dumps(secret)[1:-1] not in text, secret
        for option in part.spec.get("options", []):
            assert option["key"] in text  # options are shown, which of them is right is not


def test_a_students_prompt_is_rendered_with_their_own_variant(course, alice, bob, client_for) -> None:
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    prompts = {}
    for student in (alice, bob):
        body = client_for(student).get(
            f"/api/v1/courses/{course.slug}/exercises/{exercise.slug}/").json()
        expected = variant_for(student=student, course=course, exercise=exercise).prompt(exercise.prompt)
        assert body["prompt"] == expected and "{{" not in body["prompt"]
        prompts[student.username] = body["prompt"]


def test_staff_see_the_full_spec_and_the_parameters(course, irene, client_for) -> None:
    body = client_for(irene).get(f"/api/v1/courses/{course.slug}/exercises/apply-1-gradient-bound/").json()
    part = body["parts"][0]
    assert part["spec"]["reference"] == "sigma^steps"
    assert part["spec"]["misconceptions"][0]["tag"] == "linear-decay"
    assert body["parameters"]["sigma"]["default"] == 0.85
    assert "0.85" in body["prompt"]  # the module's own numbers


def test_sections_and_the_module_are_readable_and_unknown_ones_are_404(course, alice, client_for) -> None:
    client = client_for(alice)
    sections = client.get(f"/api/v1/courses/{course.slug}/sections/").json()["results"]
    assert [s["number"] for s in sections][:2] == ["5.1", "5.2"]
    section = client.get(f"/api/v1/courses/{course.slug}/sections/{sections[0]['slug']}/").json()
    assert section["body"]
    assert client.get(f"/api/v1/courses/{course.slug}/module/").json()["slug"] == "module-05"
    missing = client.get(f"/api/v1/courses/{course.slug}/sections/no-such-section/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert client.get(f"/api/v1/courses/{course.slug}/exercises/nope/").status_code == 404


def test_the_exercise_list_costs_a_fixed_number_of_queries(course, alice, client_for,
                                                            django_assert_max_num_queries) -> None:
    client = client_for(alice)
    with django_assert_max_num_queries(8):
        client.get(f"/api/v1/courses/{course.slug}/exercises/")


def test_an_lms_key_reads_an_exercise_with_a_students_variant(course, alice, bob, lms_token,
                                                             key_client) -> None:
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    client = key_client(lms_token)
    url = f"/api/v1/courses/{course.slug}/exercises/{exercise.slug}/"
    for student in (alice, bob):
        body = client.get(url, {"student": student.pk}).json()
        variant = variant_for(student=student, course=course, exercise=exercise)
        assert body["prompt"] == variant.prompt(exercise.prompt)
        assert body["student"] == student.pk
        assert body["variant"] == json.loads(json.dumps(variant.params))
    listed = client.get(f"/api/v1/courses/{course.slug}/exercises/",
                        {"student": alice.pk, "limit": 100}).json()["results"]
    one = next(e for e in listed if e["slug"] == exercise.slug)
    assert one["prompt"] == variant_for(student=alice, course=course,
                                        exercise=exercise).prompt(exercise.prompt)


def test_student_query_names_a_student_of_the_course(course, alice, bob, lms_token, key_client,
                                                     client_for) -> None:
    url = f"/api/v1/courses/{course.slug}/exercises/apply-1-gradient-bound/"
    assert key_client(lms_token).get(url, {"student": 999999}).status_code == 404
    assert key_client(lms_token).get(url, {"student": "x"}).status_code == 400
    # a student may name only themself
    assert client_for(alice).get(url, {"student": bob.pk}).status_code == 403
    assert client_for(alice).get(url, {"student": alice.pk}).status_code == 200


def test_favicon_ico_is_served(client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code in (200, 301, 302)
    if response.status_code != 200:
        response = client.get(response["Location"])
    assert response.status_code == 200
    assert b"<svg" in b"".join(response.streaming_content if response.streaming else [response.content])
