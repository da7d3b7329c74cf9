"""Sign-in rate limiting: after too many failed sign-ins for one username from one address,
further attempts are refused (even with the right password) until the window has passed.

Enforced in the authentication backend, so every sign-in form (the site's and the admin's)
is covered. Counts live in Django's cache; set CACHE_URL to a shared cache (Redis) when
several web processes run, or each process counts on its own.
"""

import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

#: Set on the request when a sign-in was refused for too many failures (the form says so).
THROTTLED_ATTRIBUTE = "sign_in_throttled"


def _limits() -> tuple[int, int]:
    return (int(getattr(settings, "SIGN_IN_MAX_FAILURES", 5)),
            int(getattr(settings, "SIGN_IN_WINDOW_SECONDS", 300)))


def _key(username: str, address: str) -> str:
    digest = hashlib.sha256(f"{username.strip().lower()}\x00{address}".encode()).hexdigest()
    return f"sign-in-failures:{digest}"


def client_address(request: HttpRequest) -> str:
    """The address the request came from (REMOTE_ADDR; a proxy must set it correctly)."""
    return str(request.META.get("REMOTE_ADDR", ""))


def sign_in_locked(*, username: str, address: str) -> bool:
    """Whether sign-ins for `username` from `address` are refused for now."""
    limit, _ = _limits()
    return int(cache.get(_key(username, address), 0)) >= limit


def sign_in_failure_record(*, username: str, address: str) -> int:
    """Count one failed sign-in; the count expires a window after the first failure."""
    _, window = _limits()
    key = _key(username, address)
    cache.add(key, 0, timeout=window)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window)
        return 1


def sign_in_failures_clear(*, username: str, address: str) -> None:
    """Forget the failures of `username` from `address` (after a successful sign-in)."""
    cache.delete(_key(username, address))


class RateLimitedModelBackend(ModelBackend):
    """Django's ModelBackend, refusing a username + address pair after too many failures."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None,
        password: str | None = None, **kwargs: Any,
    ) -> User | None:
        if request is None or username is None:
            return super().authenticate(request, username=username, password=password, **kwargs)
        address = client_address(request)
        if sign_in_locked(username=username, address=address):
            setattr(request, THROTTLED_ATTRIBUTE, True)
            raise PermissionDenied("too many failed sign-ins")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            sign_in_failure_record(username=username, address=address)
        else:
            sign_in_failures_clear(username=username, address=address)
        return user
