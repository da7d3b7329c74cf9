"""Pages an LMS shows in its iframe: `Content-Security-Policy: frame-ancestors` naming the
registered platforms replaces the site-wide `X-Frame-Options: DENY` on them.

LTI-reachable pages are the tool's own (/lti/, except the staff setup page) and every page of
a session that began with a launch. Everything else keeps DENY. Sits after Django's
XFrameOptionsMiddleware in MIDDLEWARE so that it sees the response first.
"""

from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from lti_tool.constants import SESSION_KEY

from lti.selectors import frame_ancestors

CACHE_KEY = "lti-frame-ancestors"
CACHE_SECONDS = 60


def frame_ancestors_directive() -> str:
    """`frame-ancestors 'self' <platform origins>` (cached for a minute)."""
    directive = cache.get(CACHE_KEY)
    if directive is None:
        directive = " ".join(["frame-ancestors", "'self'", *frame_ancestors()])
        cache.set(CACHE_KEY, directive, CACHE_SECONDS)
    return str(directive)


def _lti_reachable(request: HttpRequest) -> bool:
    if request.path.startswith("/lti/"):
        return not request.path.startswith("/lti/setup/")
    session = getattr(request, "session", None)
    return session is not None and SESSION_KEY in session


class FrameAncestorsMiddleware:
    """Lets registered platforms frame LTI-reachable pages (CSP frame-ancestors)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not _lti_reachable(request):
            return response
        directive = frame_ancestors_directive()
        existing = response.get("Content-Security-Policy", "")
        policy = "; ".join(p for p in (existing.strip().rstrip(";"), directive) if p)
        response["Content-Security-Policy"] = policy
        response.xframe_options_exempt = True
        return response
