"""Pages an LMS shows in its iframe: the site-wide Content-Security-Policy (django-csp,
settings CONTENT_SECURITY_POLICY) gets `frame-ancestors` and `form-action` naming the
registered platforms instead of `'none'` and `'self'`, and the site-wide
`X-Frame-Options: DENY` is dropped on them.

LTI-reachable pages are the tool's own (/lti/, except the staff setup page) and every page of
a session that began with a launch. Everything else keeps DENY. Sits after Django's
XFrameOptionsMiddleware and django-csp's CSPMiddleware in MIDDLEWARE so that it sees the
response first.
"""

from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from lti_tool.constants import SESSION_KEY

from lti.selectors import frame_ancestors

CACHE_KEY = "lti-frame-ancestor-origins"
CACHE_SECONDS = 60


def platform_origins() -> list[str]:
    """The registered platforms' origins that may frame LTI pages (cached for a minute)."""
    origins = cache.get(CACHE_KEY)
    if origins is None:
        origins = list(frame_ancestors())
        cache.set(CACHE_KEY, origins, CACHE_SECONDS)
    return [str(origin) for origin in origins]


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
        origins = platform_origins()
        # django-csp's CSPMiddleware (outside this one) writes the header from these.
        replace = dict(getattr(response, "_csp_replace", None) or {})
        replace["frame-ancestors"] = ["'self'", *origins]
        replace["form-action"] = ["'self'", *origins]  # the deep-linking answer goes back
        response._csp_replace = replace  # type: ignore[attr-defined]
        response.xframe_options_exempt = True
        return response


class ThirdPartyCookiesMiddleware:
    """The session and CSRF cookies of LTI-reachable responses are `SameSite=None; Secure`,
    which a browser sends inside the LMS's iframe; everywhere else they keep the settings'
    `SameSite=Lax`. Only over HTTPS (or with the cookies set Secure): a browser drops a
    `SameSite=None` cookie that is not Secure. Sits before SessionMiddleware and
    CsrfViewMiddleware in MIDDLEWARE, so that it sees the cookies they set."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not (request.is_secure() or settings.SESSION_COOKIE_SECURE):
            return response
        names = (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME)
        if not any(name in response.cookies for name in names) or not _lti_reachable(request):
            return response
        for name in names:
            if name in response.cookies:
                response.cookies[name]["samesite"] = "None"
                response.cookies[name]["secure"] = True
        return response
