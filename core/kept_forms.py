"""Registry of the forms whose text a database outage must not lose. The answer forms
register here from their app's ready(); a POST to one of them that the database refused
(ops/database_outage.py) is answered with a page that says plainly that it was NOT saved
and holds the form again with the typed text in it (resent by itself when the page's
script runs, else by the student's click), or, to the page's script, JSON that tells it to
keep the text and send it again.

Nothing here reads the database: the page is built from the request alone (its POST data,
its URL and the CSRF cookie), since it is shown exactly when the database is away.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve

#: The header of an answer sent in place by config/static/grader.js.
FRAGMENT_HEADER = "X-Answer-Fragment"
NOT_SAVED = ("Your answer was NOT saved: the service lost its database for a moment. It is "
             "kept here and will be sent again by itself when the service answers; you can "
             "also send it again yourself in a few seconds. If it had reached us before the "
             "connection dropped, sending it again does not count it twice.")


@dataclass(frozen=True)
class KeptForm:
    """A POST route whose `fields` are given back on a refusal; `back(kwargs)` is the page to
    go back to (from the route's URL arguments, without the database)."""

    fields: tuple[str, ...]
    back: Callable[[dict[str, Any]], str] | None = None


_kept: dict[str, KeptForm] = {}


def kept_form_register(url_name: str, form: KeptForm) -> None:
    """Keep `form.fields` of POSTs to the route named `url_name` ("app:name" for namespaced
    routes) through a database outage; called from the owning app's `ready()`."""
    _kept[url_name] = form


def kept_form_for(request: HttpRequest) -> tuple[KeptForm, dict[str, Any]] | None:
    """The registered form `request` posts to, with its route's URL arguments; None when the
    request is not a POST to a registered route."""
    if request.method != "POST":
        return None
    try:
        match = request.resolver_match or resolve(request.path_info)
    except Resolver404:
        return None
    form = _kept.get(match.view_name)
    return (form, dict(match.kwargs)) if form is not None else None


def _no_response(request: HttpRequest) -> HttpResponse:  # pragma: no cover - never called
    raise AssertionError("only process_request is used")


def _csrf_token(request: HttpRequest) -> str:
    """A token for the kept form, from the CSRF cookie the student's page set (the refusal
    may come before the CSRF layer has read it)."""
    if "CSRF_COOKIE" not in request.META:
        CsrfViewMiddleware(_no_response).process_request(request)
    return get_token(request)


def kept_form_refusal(request: HttpRequest, form: KeptForm, kwargs: dict[str, Any], *,
                      retry_after: int) -> HttpResponse:
    """The 503 for a refused POST to a kept form: JSON for the page's script (it keeps the
    text where it is and sends it again), else a page with the form and the text kept."""
    kept = {name: ",".join(v for v in request.POST.getlist(name) if v.strip())
            for name in form.fields}
    response: HttpResponse
    if request.headers.get(FRAGMENT_HEADER) == "1":
        response = JsonResponse({"code": "database_unavailable", "saved": False,
                                 "message": NOT_SAVED, "retry_after": retry_after}, status=503)
    else:
        response = HttpResponse(render_to_string("not_saved.html", {
            "message": NOT_SAVED, "action": request.path, "kept": kept,
            "csrf_token": _csrf_token(request), "retry_after": retry_after,
            "back": form.back(kwargs) if form.back is not None else "",
        }), status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "no-store"
    return response
