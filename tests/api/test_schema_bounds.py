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
