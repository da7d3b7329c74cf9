"""Every integer a client can send the API is bounded by validation (issue 38 item 3): each
integer query parameter and request-body property the OpenAPI schema documents, found by
walking the schema, is sent a value past what any column holds, and the answer is a 400
naming it, never a 500 (on PostgreSQL a number past a column's type was a server error)."""

from typing import Any

import pytest

pytestmark = pytest.mark.django_db

TOO_LARGE = 10**20  # past a BIGINT (2**63 - 1), so past every integer column


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _integer_properties(schema: dict[str, Any], node: dict[str, Any],
                        path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Paths (property names, 0 for an array item) to each integer in a request body."""
    node = _resolve(schema, node)
    if node.get("type") == "integer":
        return [path]
    if node.get("type") == "array":
        return _integer_properties(schema, node.get("items", {}), (*path, 0))
    found: list[tuple[str | int, ...]] = []
    for name, child in node.get("properties", {}).items():
        found += _integer_properties(schema, child, (*path, name))
    return found


def _body_with(path: tuple[str | int, ...], value: int) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    return [_body_with(rest, value)] if head == 0 else {head: _body_with(rest, value)}


Where = tuple[str | int, ...]


def _integer_inputs(schema: dict[str, Any]) -> list[tuple[str, str, str, Where]]:
    inputs: list[tuple[str, str, str, Where]] = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "query" and _resolve(schema, parameter["schema"]).get(
                        "type") == "integer":
                    name: Where = (parameter["name"],)
                    inputs.append((method, path, "query", name))
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                inputs += [(method, path, "body", where)
                           for where in _integer_properties(schema, body["schema"])]
    return inputs


def test_every_documented_integer_input_past_a_bigint_is_a_400_naming_it(course, irene,
                                                                          client_for) -> None:
    client = client_for(irene)  # the course's instructor may call every operation
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    inputs = _integer_inputs(schema)
    assert len(inputs) >= 30, inputs  # the walk found the API's integers

    wrong = []
    for method, path, where, name in inputs:
        url = path.format(course_slug=course.slug, exercise_slug="apply-1-gradient-bound",
                          student_id=irene.pk, assessment_slug="any", attempt_id=1)
        if where == "query":
            response = getattr(client, method)(f"{url}?{name[0]}={TOO_LARGE}")
        else:
            response = getattr(client, method)(url, _body_with(name, TOO_LARGE), format="json")
        named = str(name[0]) in response.json().get("fields", {}) if response.status_code == 400 \
            else False
        if response.status_code != 400 or not named:
            wrong.append(f"{method.upper()} {path} {where} {name}: {response.status_code} "
                         f"{response.content[:200]!r}")
    assert not wrong, "\n".join(wrong)
