"""Rate limit of the unauthenticated operations endpoints (health), per client address.

Django REST framework's SimpleRateThrottle does the counting (in Django's cache: with
CACHE_URL pointing at Redis the limit is shared by every web process); the rate is
HEALTH_THROTTLE_RATE ("120/min" by default), read at each request, and the address is
DRF's (REMOTE_ADDR, or X-Forwarded-For with REST_FRAMEWORK["NUM_PROXIES"]).
"""

import logging
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework.throttling import SimpleRateThrottle

logger = logging.getLogger(__name__)


class HealthRateThrottle(SimpleRateThrottle):
    scope = "health"

    def get_rate(self) -> str:
        return str(getattr(settings, "HEALTH_THROTTLE_RATE", "120/min"))

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def health_request_allowed(request: HttpRequest) -> tuple[bool, float | None]:
    """Whether the address of `request` may call a health endpoint now, and if not, in how
    many seconds it may again. When the cache itself is down the call is allowed: readiness
    must still answer, and say that the cache is down."""
    throttle = HealthRateThrottle()
    try:
        if throttle.allow_request(request, None):  # type: ignore[arg-type]
            return True, None
    except Exception:
        logger.warning("health rate limit unavailable (cache down?); request allowed")
        return True, None
    return False, throttle.wait()
