"""The request's language, as courses/languages.py decides it, activated for the view."""

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from courses.languages import CHOSEN_KEY, LAUNCH_KEY, course_language, language_resolve


def _session_value(request: HttpRequest, key: str) -> str | None:
    session = getattr(request, "session", None)
    if session is None or not request.COOKIES.get(settings.SESSION_COOKIE_NAME):
        return None  # no session yet: nothing to read (and no empty session loaded)
    return session.get(key)


class LanguageMiddleware:
    """Activates the request's language before its view runs (a course's pages once the URL
    names the course) and says so in the response (Content-Language, Vary)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def _activate(self, request: HttpRequest, course_slug: str | None) -> None:
        accepted = translation.get_language_from_request(request) \
            if request.headers.get("Accept-Language") else None
        course = course_language(slug=course_slug) if course_slug else None
        language = language_resolve(
            chosen=_session_value(request, CHOSEN_KEY),
            launch=_session_value(request, LAUNCH_KEY),
            course=course, accepted=accepted)
        request.content_language = course or settings.LANGUAGE_CODE  # type: ignore[attr-defined]
        translation.activate(language)
        request.LANGUAGE_CODE = language

    def __call__(self, request: HttpRequest) -> HttpResponse:
        self._activate(request, None)
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", translation.get_language())
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response

    def process_view(self, request: HttpRequest, view: Any, args: Any,
                     kwargs: dict[str, Any]) -> None:
        """On a course's pages the course's default joins the candidates."""
        slug = kwargs.get("course_slug")
        if slug:
            self._activate(request, str(slug))
