"""Request context for logs: the course a request is about, and its id in the response.

Sits right inside django-structlog's RequestMiddleware (which binds request_id, user_id and
the address, and logs one "request_finished" line per request).
"""

from collections.abc import Callable
from typing import Any

import structlog
from django.http import HttpRequest, HttpResponse

REQUEST_ID_HEADER = "X-Request-ID"


class RequestIdResponseMiddleware:
    """Binds `course` (the URL's course slug) into the log context before the view runs, and
    returns the request id in the X-Request-ID response header, so that a user's report
    ("it failed at 10:32, request id ...") leads to the request's line and its tasks' lines."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        request_id = structlog.contextvars.get_contextvars().get("request_id")
        if request_id and REQUEST_ID_HEADER not in response:
            response[REQUEST_ID_HEADER] = str(request_id)
        return response

    def process_view(self, request: HttpRequest, view_func: Any, view_args: Any,
                     view_kwargs: dict[str, Any]) -> None:
        course = view_kwargs.get("course_slug")
        if isinstance(course, str):
            structlog.contextvars.bind_contextvars(course=course)
