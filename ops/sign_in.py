"""Sign-in throttling glue for django-axes: the limits from our settings and the page a
paused sign-in gets.

django-axes counts failed sign-ins per username and address (AXES_LOCKOUT_PARAMETERS) in
its database tables, refuses further sign-ins for that pair (even with the right password)
from the SIGN_IN_MAX_FAILURES-th failure until SIGN_IN_WINDOW_SECONDS have passed since
the last counted failure, and forgets the failures after a successful sign-in. Its
authentication backend sees every sign-in form, the admin's included. Operators unlock a
pair early with `manage.py axes_reset_username USERNAME` (or `axes_reset_ip ADDRESS`).
"""

import hashlib
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS
from django.forms.utils import ErrorDict
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

#: What a paused sign-in is told (the site's login template says the same).
SIGN_IN_PAUSED_MESSAGE = ("Too many failed sign-ins for this username from your network. For your "
                          "security, signing in is paused: wait a few minutes and try again.")
#: Set on the request when a sign-in was refused (the site's login template reads it).
THROTTLED_ATTRIBUTE = "sign_in_throttled"


def failure_limit(request: HttpRequest | None, credentials: Any = None) -> int:
    """AXES_FAILURE_LIMIT: SIGN_IN_MAX_FAILURES, read at each sign-in (tests override it)."""
    return int(getattr(settings, "SIGN_IN_MAX_FAILURES", 5))


def cool_off(request: HttpRequest | None = None) -> timedelta:
    """AXES_COOLOFF_TIME: SIGN_IN_WINDOW_SECONDS, read at each sign-in."""
    return timedelta(seconds=int(getattr(settings, "SIGN_IN_WINDOW_SECONDS", 300)))


class _PausedForm(AuthenticationForm):
    """An unbound sign-in form that shows the paused message as its error."""

    def __init__(self, request: HttpRequest, username: str,
                 message: str = SIGN_IN_PAUSED_MESSAGE) -> None:
        super().__init__(request, initial={"username": username})
        self._errors = ErrorDict({NON_FIELD_ERRORS: self.error_class(
            [message], error_class="nonfield")})


def _is_admin(request: HttpRequest) -> bool:
    match = getattr(request, "resolver_match", None)
    return bool(match and match.namespace == admin.site.name)


def sign_in_paused_response(request: HttpRequest, original_response: HttpResponse | None = None,
                            credentials: dict[str, Any] | None = None,
                            message: str = SIGN_IN_PAUSED_MESSAGE) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the sign-in page the request came from (the site's or the
    admin's), saying `message` (signing in is paused), with status 429 and the username kept."""
    username = str((credentials or {}).get("username") or request.POST.get("username", ""))[:150]
    setattr(request, THROTTLED_ATTRIBUTE, True)
    form = _PausedForm(request, username, message)
    status = int(getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429))
    if _is_admin(request):
        context = {**admin.site.each_context(request), "form": form, "title": "Log in",
                   "app_path": request.get_full_path(), "username": username,
                   "next": request.POST.get("next", "")}
        response = TemplateResponse(request, "admin/login.html", context, status=status)
    else:
        response = TemplateResponse(request, "registration/login.html",
                                    {"form": form, "next": request.POST.get("next", "")},
                                    status=status)
    return response.render()


def client_str(username: str, ip_address: str, user_agent: str, path_info: str,
               request: object) -> str:
    """How django-axes names a sign-in attempt in the logs: a digest of the username (enough
    to follow one person's attempts, no name in the logs to erase later) and the path."""
    digest = hashlib.sha256((username or "").strip().lower().encode()).hexdigest()[:12]
    return f"{{username digest: {digest}, path_info: {path_info!r}}}"
