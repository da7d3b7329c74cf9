"""The code refuses what the schema does not allow, and the schema says what the code requires
(issue 38 item 6): an empty `format`, a number for a boolean, and `student`, which an API key
must always give, marked required in the schema the key reads."""

import pytest

from api.keys import api_key_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("tail", ["gradebook/", "gradebook/students/{student}/"])
def test_an_empty_format_is_refused_like_an_unknown_one(course, irene, alice, client_for,
                                                        tail) -> None:
    client = client_for(irene)
    url = f"/api/v1/courses/{course.slug}/" + tail.format(student=alice.pk)

    empty, unknown = client.get(f"{url}?format="), client.get(f"{url}?format=xml")

    assert empty.status_code == unknown.status_code == 404, empty.content[:300]
    assert empty.json()["code"] == "not_found"
    assert client.get(f"{url}?format=json").status_code == 200
    assert client.get(f"{url}?format=csv")["Content-Type"].startswith("text/csv")


@pytest.mark.parametrize("value", [1, 0, "true", "yes", None])
def test_a_boolean_that_is_not_a_json_boolean_is_refused(course, irene, client_for,
                                                         value) -> None:
    response = client_for(irene).put(f"/api/v1/courses/{course.slug}/roster/",
                                     {"roster": [], "allow_mass_deactivation": value},
                                     format="json")

    assert response.status_code == 400, response.content[:300]
    assert "allow_mass_deactivation" in response.json()["fields"]


def test_a_json_boolean_is_accepted(course, irene, client_for) -> None:
    response = client_for(irene).put(f"/api/v1/courses/{course.slug}/roster/",
                                     {"roster": [], "allow_mass_deactivation": True},
                                     format="json")

    assert response.status_code == 200, response.content[:300]


@pytest.mark.parametrize("component", ["SubmissionListInputRequest", "LabRunListInputRequest"])
def test_the_schema_an_api_key_reads_marks_student_required(course, irene, key_client,
                                                            client_for, alice, component) -> None:
    token = api_key_create(course=course, name="LMS", role="lms", created_by=irene).token

    as_key = key_client(token).get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    as_student = client_for(alice).get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()

    assert "student" in as_key["components"]["schemas"][component]["required"]
    assert "student" not in as_student["components"]["schemas"][component].get("required", [])


def test_what_the_key_schema_requires_is_what_the_api_requires(course, irene, key_client) -> None:
    token = api_key_create(course=course, name="LMS", role="lms", created_by=irene).token
    client = key_client(token)

    response = client.post(f"/api/v1/courses/{course.slug}/submissions/",
                           {"part": 1, "answer": "0.1"}, format="json")

    assert response.status_code == 400 and "student" in response.json()["fields"]


@pytest.mark.parametrize(("tail", "body", "field"), [
    ("submissions/", {"part": 1, "answer": 0, "student": 1}, "answer"),
    ("roster/", {"roster": [{"external_id": "s1", "group": 0}]}, "roster.0.group"),
    ("webhooks/", {"url": 5, "events": ["submission.graded"]}, "url"),
])
def test_a_number_for_a_string_in_a_body_is_refused(course, irene, alice, client_for, tail,
                                                    body, field) -> None:
    """schemathesis's coverage phase found `"answer": 0` stored as the answer "0"."""
    client = client_for(irene)
    method = client.put if tail == "roster/" else client.post

    response = method(f"/api/v1/courses/{course.slug}/{tail}", body, format="json")

    assert response.status_code == 400, response.content[:300]
    assert any(name.startswith(field) for name in response.json()["fields"]), response.json()
