"""`student` is optional in the schema (OpenAPI cannot make it required for some callers only),
so its description says, per caller, when it is required, and the API's answer to a caller
that leaves it out when it is required is the documented 400 naming the field."""

import pytest

pytestmark = pytest.mark.django_db


def _operation(client, path: str, method: str) -> dict:
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    return schema["paths"][path][method]


def _body_student(client, path: str) -> dict:
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    reference = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    name = reference["$ref"].rsplit("/", 1)[-1]
    return schema["components"]["schemas"][name]["properties"]["student"]


@pytest.mark.parametrize("path", ["/api/v1/courses/{course_slug}/submissions/",
                                  "/api/v1/courses/{course_slug}/lab-runs/"])
def test_the_body_student_is_documented_as_required_for_staff_and_the_lms_key(client, path):
    description = _body_student(client, path)["description"]

    assert "Required for staff and the LMS key" in description
    assert "400" in description and "404" in description and "403" in description
    assert "400" in _operation(client, path, "post")["responses"]


@pytest.mark.parametrize("path", ["/api/v1/courses/{course_slug}/exercises/",
                                  "/api/v1/courses/{course_slug}/exercises/{exercise_slug}/",
                                  "/api/v1/courses/{course_slug}/submissions/",
                                  "/api/v1/courses/{course_slug}/lab-runs/"])
def test_the_query_student_says_what_it_does_for_staff_keys_and_students(client, path):
    operation = _operation(client, path, "get")
    (student,) = [p for p in operation["parameters"] if p["name"] == "student"]

    assert not student.get("required", False)
    assert "Staff and API keys" in student["description"]
    assert "A student" in student["description"] and "403" in student["description"]
    assert {"400", "403", "404"} <= set(operation["responses"])


def test_an_lms_submission_without_student_is_the_documented_400_naming_it(course, numeric_part,
                                                                          key_client, lms_token):
    response = key_client(lms_token).post(f"/api/v1/courses/{course.slug}/submissions/",
                                          {"part": numeric_part.pk, "answer": "0.1"}, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid" and "`student` is required" in body["message"]
    assert body["fields"] == {"student": ["This field is required."]}


def test_the_lms_key_reads_exercises_without_student_and_an_unknown_student_is_a_404(
        course, key_client, lms_token):
    client = key_client(lms_token)
    url = f"/api/v1/courses/{course.slug}/exercises/"

    assert client.get(url).status_code == 200
    assert client.get(url, {"student": 999999}).status_code == 404
