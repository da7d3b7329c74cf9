"""One error shape for every 4xx of the API: {"code", "message", "fields"}."""

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

MESSAGES = {
    "not_authenticated": "Authentication is required: log in or send an API key.",
    "authentication_failed": "The credentials were not accepted.",
    "permission_denied": "You may not do this.",
    "not_found": "Not found.",
    "method_not_allowed": "This method is not allowed here.",
    "unsupported_media_type": "Send JSON (Content-Type: application/json).",
    "not_acceptable": "No acceptable response format.",
    "throttled": "Too many requests; slow down.",
    "parse_error": "The request body could not be read.",
}


def error_body(code: str, message: str, fields: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """The error shape as a dict."""
    return {"code": code, "message": message, "fields": fields or {}}


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested validation detail as dotted field names -> list of messages."""
    fields: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for name, value in detail.items():
            key = f"{prefix}.{name}" if prefix else str(name)
            for sub, messages in _flatten(value, key).items():
                fields.setdefault(sub, []).extend(messages)
    elif isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            fields[prefix or "non_field_errors"] = [str(item) for item in detail]
        else:
            for index, item in enumerate(detail):
                if item:
                    key = f"{prefix}.{index}" if prefix else str(index)
                    for sub, messages in _flatten(item, key).items():
                        fields.setdefault(sub, []).extend(messages)
    else:
        fields[prefix or "non_field_errors"] = [str(detail)]
    return fields


def _code(detail: Any, default: str) -> str:
    code = getattr(detail, "code", None)
    return str(code) if isinstance(code, str) and code else default


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, then the body rewritten to the error shape; unknown errors stay 500."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or MESSAGES["not_found"])
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or MESSAGES["permission_denied"])
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, ApiError):
        response.data = error_body(exc.error_code, exc.message, exc.fields)
        return response
    if isinstance(exc, exceptions.ValidationError):
        fields = _flatten(exc.detail)
        messages = [m for items in fields.values() for m in items]
        message = messages[0] if len(messages) == 1 else "The input is not valid; see fields."
        response.data = error_body("invalid", message, fields)
        return response
    default_code = exc.default_code if isinstance(exc.default_code, str) else "error"
    detail = exc.detail
    code = _code(detail, default_code)
    if isinstance(detail, dict | list):
        response.data = error_body(code, MESSAGES.get(code, "The request failed."), _flatten(detail))
    else:
        message = str(detail) if detail else MESSAGES.get(code, "The request failed.")
        response.data = error_body(code, message)
    return response


class ApiError(exceptions.APIException):
    """An API error with an explicit status and code, e.g. ApiError(409, "submission_refused", msg)."""

    def __init__(self, status_code: int, code: str, message: str,
                 fields: dict[str, list[str]] | None = None) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.error_code = code
        self.message = message
        self.fields = fields or {}


@csrf_exempt  # it changes nothing; a POST must get this 404, not the CSRF page
def not_found_view(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Unknown paths under /api/v1/ answer 404 in the error shape, whatever the method."""
    return JsonResponse(error_body("not_found", "No such API endpoint."), status=status.HTTP_404_NOT_FOUND)
