"""A database connection that drops mid-request (PostgreSQL restarting, a failover): a safe
request (GET, HEAD) is run once more on a new connection; anything else, or a retry that
fails too, is answered 503 with Retry-After and what the person needs to know: what they
sent was NOT saved and must be sent again. An answer form (core/kept_forms.py) gets its text
back in the refusal, which keeps it and resends it; the API says `"saved": false`, and a
retry with the same Idempotency-Key is stored once (api/idempotency.py).
"""

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse

from core.kept_forms import kept_form_for, kept_form_refusal

logger = logging.getLogger(__name__)

SAFE_METHODS = ("GET", "HEAD")
# Health answers for itself (liveness touches no dependency; readiness names the database),
# metrics and static files need no database.
# The schema and its viewer read no table: they must answer whatever the database does.
UNTOUCHED_PREFIXES = ("/health/", "/metrics", "/static/", "/api/v1/schema/", "/api/v1/docs/")
RETRY_AFTER_SECONDS = 10
MESSAGE = ("The service lost its database connection for a moment, so what you sent was "
           "NOT saved. Go back (your browser keeps what you typed) and send it again in a "
           "few seconds; an answer that did reach us is recognised and not counted twice.")
RELOAD_MESSAGE = ("The service lost its database connection for a moment. Please reload the "
                  "page in a few seconds.")
API_MESSAGE = ("The service lost its database connection and did not complete this request: "
               "send it again after Retry-After seconds. With the same Idempotency-Key it is "
               "stored exactly once.")
PAGE = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Back in a moment"
        "</title></head><body><main><h1>Back in a moment</h1><p>{message}</p></main></body></html>")


def _connection_lost(exception: BaseException) -> bool:
    return isinstance(exception, (OperationalError, InterfaceError))


def _reset_connections() -> None:
    for connection in connections.all(initialized_only=True):
        try:
            connection.close()
        except Exception:  # a broken connection may fail to close: it is gone
            connection.connection = None


def outage_response(request: HttpRequest) -> HttpResponse:
    """The 503 for `request`: for a kept form its text given back (core/kept_forms.py), JSON
    under /api/, a short page otherwise; Retry-After set."""
    kept = kept_form_for(request)
    if kept is not None:
        return kept_form_refusal(request, *kept, retry_after=RETRY_AFTER_SECONDS)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"detail": API_MESSAGE, "code": "database_unavailable", "saved": False,
             "retry_after": RETRY_AFTER_SECONDS}, status=503)
    else:
        message = RELOAD_MESSAGE if request.method in SAFE_METHODS else MESSAGE
        response = HttpResponse(PAGE.format(message=message), status=503,
                                content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def outage_response_for_error(request: HttpRequest) -> HttpResponse | None:
    """For handler500 (config/errors.py): the 503 of `outage_response` when the exception
    being handled is a lost database connection, else None. It catches what this
    middleware cannot see: a connection lost in a layer inside it (the session and the user
    read by the request-log layer before the view runs), which Django turns into a 500
    before it reaches here."""
    exception = sys.exc_info()[1]
    if exception is None or not _connection_lost(exception):
        return None
    _reset_connections()
    logger.warning("database connection lost (%s) before the view; answered 503 to %s",
                   type(exception).__name__, request.method)
    return outage_response(request)


class DatabaseOutageMiddleware:
    """Retries a safe request once after a dropped database connection, else answers 503."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(UNTOUCHED_PREFIXES):
            return self.get_response(request)
        # Before the session and the user are read: a kept connection the database dropped is
        # replaced by a new one (the retry), and a database that does not answer a new one is
        # a 503 at once, not a 500 from the session layer.
        try:
            for connection in connections.all(initialized_only=True):
                if connection.connection is not None and not connection.is_usable():
                    connection.close()
            connections["default"].ensure_connection()
        except (OperationalError, InterfaceError) as exc:
            _reset_connections()
            logger.warning("database unavailable (%s); answered 503 to %s",
                           type(exc).__name__, request.method)
            return outage_response(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not _connection_lost(exception):
            return None
        _reset_connections()
        if request.method in SAFE_METHODS and request.resolver_match is not None \
                and not getattr(request, "_database_retried", False):
            request._database_retried = True  # type: ignore[attr-defined]
            match = request.resolver_match
            try:
                logger.warning("database connection lost (%s); retrying %s once",
                               type(exception).__name__, request.method)
                response: Any = match.func(request, *match.args, **match.kwargs)
                if hasattr(response, "render") and callable(response.render):
                    response = response.render()
                return response
            except Exception as again:
                if not _connection_lost(again):
                    raise
                _reset_connections()
        logger.warning("database connection lost (%s); answered 503 to %s",
                       type(exception).__name__, request.method)
        return outage_response(request)
