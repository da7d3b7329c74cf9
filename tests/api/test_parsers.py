"""JSON bodies the API refuses with a 400 and a message: nested deeper than it reads (100,000
levels made Python's reader raise RecursionError: a 500), or holding a NUL character."""

import pytest

from api.parsers import MAX_DEPTH, json_problem

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("body", [
    "[" * 100_000 + "]" * 100_000,
    '{"a":' * 100_000 + "1" + "}" * 100_000,
    "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    '{"answers": ' + "[" * 50 + "]" * 50 + "}",
])
@pytest.mark.parametrize("tail", ["roster/", "webhooks/", "submissions/", "api-keys/"])
def test_a_deeply_nested_body_is_a_400(course, irene, client_for, tail, body):
    send = client_for(irene).put if tail == "roster/" else client_for(irene).post
    response = send(f"/api/v1/courses/{course.slug}/{tail}", data=body,
                    content_type="application/json")

    assert response.status_code == 400, response.content[:300]
    assert response.json()["code"] == "parse_error"
    assert f"nested more than {MAX_DEPTH} levels" in response.json()["message"]


@pytest.mark.parametrize("body", ['{"url": "https://x.example/\\u0000"}',
                                  '{"events\\u0000": []}', '["\\u0000"]'])
def test_a_nul_character_in_a_body_is_a_400(course, irene, client_for, body):
    response = client_for(irene).post(f"/api/v1/courses/{course.slug}/webhooks/", data=body,
                                      content_type="application/json")

    assert response.status_code == 400, response.content[:300]
    assert "NUL character" in response.json()["message"]


def test_bodies_within_the_bound_are_read():
    assert json_problem({"roster": [{"external_id": "a", "name": "A"}]}) is None
    assert json_problem([[[[]]]], max_depth=4) is None
    assert json_problem([[[[[]]]]], max_depth=4) is not None
