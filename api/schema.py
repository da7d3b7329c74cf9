"""OpenAPI post-processing: every operation documents the error shape for its 4xx answers, and
the schema an API key reads marks `student` required in the bodies that act for a student."""

from typing import Any

from drf_spectacular import openapi

from api.models import ApiKey

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "description": "machine-readable reason (not_found, invalid, ...)"},
        "message": {"type": "string", "description": "a sentence for people"},
        "fields": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
            "description": "field name -> messages (empty unless the input was invalid)",
        },
    },
    "required": ["code", "message", "fields"],
}

ERRORS = {
    "400": "Invalid input",
    "401": "Not authenticated, or the API key is unknown or revoked",
    "403": "Not allowed (role, read-only key, CSRF)",
    "404": "Not found, or not yours",
    "405": "Method not allowed",
    "406": "Not acceptable",
    "409": "Conflict (refused submission, Idempotency-Key in progress)",
    "415": "Unsupported media type",
    "422": "Idempotency-Key reused with a different request",
    "429": "Throttled",
}


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Add the Error component and reference it from each operation's 4xx responses; for a
    caller authenticated by an API key, mark `student` required (see `student_required`)."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    if isinstance(getattr(request, "auth", None), ApiKey):
        student_required(components)
    components["Error"] = ERROR_SCHEMA
    reference = {"$ref": "#/components/schemas/Error"}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for code, description in ERRORS.items():
                if code == "422" and method != "post":
                    continue
                if code == "409" and method not in ("post", "put"):
                    continue
                media = {"application/json": {"schema": reference}}
                if "text/csv" in str(operation["responses"].get("200", {})):
                    media["text/csv"] = {"schema": {"type": "string"}}
                operation["responses"].setdefault(code, {"description": description, "content": media})
    return result


def student_required(components: dict[str, Any]) -> None:
    """Mark `student` required in every request body that has it (a submission, a lab run):
    a key acts for the course, so it must always say whose work it sends (400 without it).
    A student leaves it out, so the schema served to a signed-in person keeps it optional;
    staff, who must give it too, read that in its description."""
    for name, component in components.items():
        if name.endswith("Request") and "student" in component.get("properties", {}):
            required = component.setdefault("required", [])
            if "student" not in required:
                required.append("student")


class AutoSchema(openapi.AutoSchema):
    """Names components of serializers nested in a view after the view:
    `RosterApi.InputSerializer` becomes `RosterInput`."""

    def get_serializer_name(self, serializer: Any, direction: Any) -> str:
        qualname = type(serializer).__qualname__
        if "." not in qualname:
            return str(super().get_serializer_name(serializer, direction))
        outer, _, inner = qualname.rpartition(".")
        return outer.split(".")[-1].removesuffix("Api") + inner.removesuffix("Serializer")
