"""The "live now" banner: on a course's pages, a student sees the question open for the room."""

from functools import partial
from typing import Any

from django.http import HttpRequest

from live.selectors import live_open_for_student


def live_now(request: HttpRequest) -> dict[str, Any]:
    """`live_now`: the session open in the course of the page's URL, for its students; read
    only when a template uses it (one query on course pages, none elsewhere)."""
    match = getattr(request, "resolver_match", None)
    slug = match.kwargs.get("course_slug") if match is not None else None
    if not slug or match is None or (match.namespace or "") in ("live", "dashboard"):
        return {}
    return {"live_now": partial(live_open_for_student, user=request.user, course_slug=slug)}
