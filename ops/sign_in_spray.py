"""Per-address limit on failed sign-ins (password spraying across usernames).

django-axes pauses one username from one address; an address that tries one password on
many usernames never trips it. This layer counts every failed sign-in per client address
in the cache (Redis in production, so all processes share it) over a fixed window of
SIGN_IN_ADDRESS_WINDOW_SECONDS; from the SIGN_IN_ADDRESS_MAX_FAILURES-th failure on, every
sign-in POST from that address (the site's and the admin's login) is answered 429 with a
clear message until the window ends, whatever the username. The client address is the one
django-axes uses (REMOTE_ADDR, or X-Forwarded-For when SIGN_IN_PROXY_COUNT is set).
"""

from collections.abc import Callable
from typing import Any

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from ops.sign_in import sign_in_paused_response

#: What a sign-in refused for its address is told.
ADDRESS_PAUSED_MESSAGE = ("Too many failed sign-ins from your network address. For your "
                          "security, signing in from it is paused: wait a few minutes and "
                          "try again.")
_KEY = "sign-in-failures:{address}"


def _limit() -> int:
    return int(getattr(settings, "SIGN_IN_ADDRESS_MAX_FAILURES", 50))


def _window() -> int:
    return int(getattr(settings, "SIGN_IN_ADDRESS_WINDOW_SECONDS", 900))


def client_address(request: HttpRequest) -> str:
    """The client address the sign-in limits count (django-axes' reading of it)."""
    return str(get_client_ip_address(request) or request.META.get("REMOTE_ADDR", ""))


def failures(address: str) -> int:
    """Failed sign-ins counted for `address` in the current window (0 when none)."""
    return int(cache.get(_KEY.format(address=address)) or 0)


def record_failure(sender: Any = None, credentials: Any = None,
                   request: HttpRequest | None = None, **kwargs: Any) -> None:
    """user_login_failed receiver: one more failure for the request's address (the window
    starts with the first failure; later ones do not extend it)."""
    if request is None:
        return
    key = _KEY.format(address=client_address(request))
    cache.add(key, 0, timeout=_window())
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=_window())


def connect() -> None:
    """Count failed sign-ins (called from OpsConfig.ready)."""
    user_login_failed.connect(record_failure, dispatch_uid="ops.sign_in_spray.record_failure")


def _is_sign_in(request: HttpRequest) -> bool:
    match = getattr(request, "resolver_match", None)
    return request.method == "POST" and bool(match and match.url_name == "login")


class AddressSignInLimitMiddleware:
    """Answers a sign-in POST 429 (the login page with ADDRESS_PAUSED_MESSAGE) when its
    address has SIGN_IN_ADDRESS_MAX_FAILURES failures in the window; otherwise passes."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func: Any, view_args: Any,
                     view_kwargs: Any) -> HttpResponse | None:
        if _is_sign_in(request) and failures(client_address(request)) >= _limit():
            return sign_in_paused_response(request, message=ADDRESS_PAUSED_MESSAGE)
        return None
