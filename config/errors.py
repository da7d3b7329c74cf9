"""Error pages (400, 403, 404, 500): the site's layout, the reason and a way back; JSON under
the API's prefix; exactly one log line each.

Django logs a 4xx response itself (a 403 with its full traceback) unless the response says it
has been logged; these handlers log one line of their own and mark the response, so a refused
or missing page is one line in the log, and a server error one record with its traceback.
"""

import logging
import re
import sys

import structlog
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.urls import reverse

from api.errors import error_body
from ops.database_outage import outage_response_for_error

logger = logging.getLogger("config.errors")

API_PREFIX = "/api/"

#: status -> (page title, reason when the exception gives none, API error code)
PAGES: dict[int, tuple[str, str, str]] = {
    400: ("Bad request", "The request could not be understood: it may have been cut short, "
                         "or sent to an address this site does not answer to.", "bad_request"),
    403: ("Not allowed", "Your account may not open this page.", "permission_denied"),
    404: ("Page not found", "There is no page at this address, or it is not open to your "
                            "account.", "not_found"),
    500: ("Something went wrong", "The server could not finish this request. It has been "
                                  "logged; please try again in a moment.", "server_error"),
}
_COURSE = re.compile(r"^/courses/(?P<slug>[-a-zA-Z0-9_]+)/")


def _reason(status: int, exception: Exception | None) -> str:
    """The exception's own message when it is one we wrote (a sentence), else the default."""
    message = exception.args[0] if exception is not None and exception.args else None
    if isinstance(message, str) and message.strip() and status != 500:
        return message.strip()
    return PAGES[status][1]


def _log(request: HttpRequest, status: int, reason: str) -> None:
    """One line per refused request: the request's own log line (written by ops' request
    logging as the response leaves) gets the reason; a request refused before that logging
    saw it (a wrong Host header) gets a line of its own here."""
    if structlog.contextvars.get_contextvars().get("request_id"):
        structlog.contextvars.bind_contextvars(reason=reason)
        return
    path = request.path.encode("unicode_escape").decode("ascii")  # one line, whatever the path
    line = f"{PAGES[status][0]} ({status}): {request.method} {path} ({reason})"
    if status >= 500:
        logger.error(line, exc_info=sys.exc_info()[0] is not None)
    else:
        logger.warning(line)


def _way_back(request: HttpRequest, status: int) -> list[tuple[str, str]]:
    """Links out of the error: the course page for a refused page of a course one is in, then
    the courses (or sign-in)."""
    links = []
    match = _COURSE.match(request.path)
    if status == 403 and match:
        links.append((reverse("course-module", args=[match["slug"]]), "Back to the course"))
    user = getattr(request, "user", None)
    if status != 500 and user is not None and not user.is_authenticated:
        links.append((reverse("login") + "?next=/", "Sign in"))
    links.append((reverse("home"), "Your courses"))
    return links


def _respond(request: HttpRequest, status: int, exception: Exception | None) -> HttpResponse:
    reason = _reason(status, exception)
    response: HttpResponse
    if request.path.startswith(API_PREFIX):
        response = JsonResponse(error_body(PAGES[status][2], reason), status=status)
    elif status == 500:  # no request context: the database or the session may be what failed
        html = loader.get_template("500.html").render({
            "status": status, "title": PAGES[status][0], "reason": reason,
            "links": [(reverse("home"), "Your courses")]})
        response = HttpResponse(html, status=status)
    else:
        response = render(request, f"{status}.html", {
            "status": status, "title": PAGES[status][0], "reason": reason,
            "path": request.path, "links": _way_back(request, status)}, status=status)
    _log(request, status, reason)
    response._has_been_logged = True  # type: ignore[attr-defined]  # Django's own flag
    return response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler400."""
    return _respond(request, 400, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler403."""
    return _respond(request, 403, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404."""
    return _respond(request, 404, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500; a lost database connection is the outage's 503 instead (an answer's text
    kept, ops/database_outage.py), wherever in the request it was lost."""
    outage = outage_response_for_error(request)
    if outage is not None:
        return outage
    return _respond(request, 500, None)


#: Why a form was refused by Django's CSRF check, in words a student understands.
CSRF_REASON = ("This form could not be accepted: it may have been open too long, or sent from "
               "another site. Reload the page and try again. (API clients: send the X-CSRFToken "
               "header with a session, or use an API key.)")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: the 403 page (JSON under the API) with the reason in plain words."""
    return _respond(request, 403, PermissionError(CSRF_REASON))
