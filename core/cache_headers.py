"""Responses for a signed-in person or an API client are never kept by a shared cache or
on disk: `Cache-Control: private, no-store` on every page, export and API answer of an
authenticated request (a session, an API key or any Authorization header)."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control


def is_private_request(request: HttpRequest) -> bool:
    """Whether `request` speaks for someone: a signed-in session or credentials sent."""
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated) or "HTTP_AUTHORIZATION" in request.META


class PrivateResponsesMiddleware:
    """Adds `Cache-Control: private, no-store` to the responses of private requests (and
    drops any `public` or `max-age` a view set: a person's page must not be stored)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if is_private_request(request):
            if "Cache-Control" in response:
                del response["Cache-Control"]
            patch_cache_control(response, private=True, no_store=True)
        return response
