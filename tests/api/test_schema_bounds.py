"""The schema documents the page bounds the API enforces: every `limit` it lists is at least 1
(with a maximum) and every `offset` 0 or more, and the API accepts the documented extremes and refuses what
lies outside them (the schema used to allow `limit=0`, which the API refuses)."""

import pytest

pytestmark = pytest.mark.django_db


def _page_parameters(schema: dict) -> list[tuple[str, dict]]:
    return [(path, parameter) for path, operations in schema["paths"].items()
            for operation in operations.values() if isinstance(operation, dict)
            for parameter in operation.get("parameters", [])
            if parameter.get("in") == "query" and parameter["name"] in ("limit", "offset")]


def test_every_documented_limit_and_offset_has_the_enforced_bounds(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    parameters = _page_parameters(schema)

    assert parameters, "no paged list in the schema"
    for path, parameter in parameters:
        minimum = parameter["schema"].get("minimum")
        if parameter["name"] == "limit":
            assert minimum == 1 and parameter["schema"].get("maximum"), (path, parameter)
        else:
            assert minimum == 0, (path, parameter)


@pytest.mark.parametrize(("query", "status"), [("limit=1", 200), ("limit=500", 200),
                                                ("offset=0", 200), ("limit=0", 400),
                                                ("offset=-1", 400)])
def test_the_documented_extremes_are_accepted_and_the_others_refused(course, irene, client_for,
                                                                     query, status):
    response = client_for(irene).get(f"/api/v1/courses/{course.slug}/submissions/?{query}")
    assert response.status_code == status


def _limited_lists(schema: dict) -> list[tuple[str, int]]:
    return [(path, parameter["schema"]["maximum"]) for path, parameter in _page_parameters(schema)
            if parameter["name"] == "limit"]


def test_a_limit_past_the_documented_maximum_is_refused_on_every_list(course, irene,
                                                                      client_for) -> None:
    """Issue 38 item 6: `limit=501` was served as 500 on every list documented with 500."""
    client = client_for(irene)
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    lists = _limited_lists(schema)
    assert len(lists) >= 9, lists
    for path, maximum in lists:
        url = path.format(course_slug=course.slug)
        at_most = client.get(f"{url}?limit={maximum}")
        past = client.get(f"{url}?limit={maximum + 1}")
        assert at_most.status_code == 200, (path, at_most.content[:200])
        assert past.status_code == 400, (path, past.content[:200])
        assert "limit" in past.json()["fields"], (path, past.content[:200])


def test_an_offset_past_a_bigint_is_refused_as_documented(course, irene, client_for) -> None:
    client = client_for(irene)
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    offsets = [p for _, p in _page_parameters(schema) if p["name"] == "offset"]
    assert {p["schema"]["maximum"] for p in offsets} == {2**63 - 1}

    response = client.get(f"/api/v1/courses/{course.slug}/submissions/?offset={2**63}")

    assert response.status_code == 400 and "offset" in response.json()["fields"]
