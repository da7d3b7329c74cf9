"""Requests refused before any view reads them: a NUL character in the address (path, query
keys or values) or in a form body is a 400 with a message, never a value handed to the
database (PostgreSQL refuses NUL in text, which would be a 500)."""

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse

NUL = "\x00"
MESSAGE = ("The request contains a NUL character (%00) in its {where}; no field of this site "
           "accepts one.")


def nul_character_location(request: HttpRequest) -> str | None:
    """Where `request` holds a NUL character ("address", "query" or "form"), or None. Only
    URL-encoded form bodies are read here (a multipart body is left to the view's form, whose
    fields refuse NUL themselves)."""
    if NUL in request.path:
        return "address"
    if any(NUL in key or any(NUL in value for value in values)
           for key, values in request.GET.lists()):
        return "query"
    if (request.method == "POST"
            and request.content_type == "application/x-www-form-urlencoded"
            and any(NUL in key or any(NUL in value for value in values)
                    for key, values in request.POST.lists())):
        return "form"
    return None


class NulCharacterMiddleware:
    """Refuses a request with a NUL character where nul_character_location() looks (400:
    config.errors renders it, JSON under the API)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        where = nul_character_location(request)
        if where is not None:
            raise BadRequest(MESSAGE.format(where=where))
        return self.get_response(request)
