"""Django's Redis cache, degrading to a per-process memory cache while Redis is away.

Everything the service keeps in the cache is disposable (API and health throttles, lab plots,
the LTI frame-ancestors list, platform keysets, LMS access tokens), so a Redis outage must not
fail a request: while Redis cannot be reached every operation goes to a LocMemCache of this
process instead (throttles then count per process, plots are drawn again), one warning is
logged when Redis goes away and one info line when it is back, never one per request. After
a failure Redis is tried again at most every `RETRY_SECONDS` (OPTIONS["FALLBACK_RETRY_SECONDS"],
default 5), so an outage costs one connect timeout per process per interval, not one per call.

`config/settings/base.py` selects it for a `CACHE_URL` of `redis://` or `rediss://`; readiness
(ops/health.py) checks Redis itself through `primary_check()`, so it still reports the outage.
"""

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger(__name__)
T = TypeVar("T")


def _unavailable_errors() -> tuple[type[BaseException], ...]:
    import redis

    return (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


class _Outage:
    """Whether one Redis location is away, shared by every thread of the process (Django makes
    one cache object per thread, and runserver one thread per request)."""

    def __init__(self) -> None:
        self.down_since: float | None = None
        self.retry_at = 0.0
        self.lock = threading.Lock()


_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


def _outage_for(location: str) -> _Outage:
    with _outages_lock:
        return _outages.setdefault(location, _Outage())


class FallbackRedisCache(RedisCache):
    """A RedisCache whose operations fall back to a per-process memory cache (see the module)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        params = dict(params)
        options = dict(params.get("OPTIONS") or {})
        self.retry_seconds = float(options.pop("FALLBACK_RETRY_SECONDS", 5.0))
        # Bound a connect to a Redis that is gone (redis-py waits for the OS otherwise).
        options.setdefault("socket_connect_timeout", 1.0)
        options.setdefault("socket_timeout", 2.0)
        params["OPTIONS"] = options
        super().__init__(server, params)
        location = server if isinstance(server, str) else ",".join(server)
        # LocMemCache objects of one name share their entries: one fallback per process.
        self._fallback = LocMemCache(f"redis-fallback:{location}", {
            "TIMEOUT": params.get("TIMEOUT", DEFAULT_TIMEOUT),
            "KEY_PREFIX": params.get("KEY_PREFIX", ""),
            "VERSION": params.get("VERSION", 1),
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        })
        self._outage = _outage_for(location)

    @property
    def degraded(self) -> bool:
        """Whether operations are going to the per-process fallback now."""
        return self._outage.down_since is not None

    def primary_check(self) -> None:
        """Write and read a probe key in Redis itself; raises when Redis cannot be reached."""
        key = f"health-probe:{id(self)}"
        super().set(key, "ok", 5)
        if super().get(key) != "ok":
            raise RuntimeError("the cache did not return the value written")

    def _call(self, primary: Callable[[], T], fallback: Callable[[], T]) -> T:
        outage = self._outage
        if outage.down_since is not None and time.monotonic() < outage.retry_at:
            return fallback()
        try:
            result = primary()
        except _unavailable_errors() as exc:
            self._went_down(exc)
            return fallback()
        if outage.down_since is not None:
            self._came_back()
        return result

    def _went_down(self, exc: BaseException) -> None:
        outage = self._outage
        with outage.lock:
            first = outage.down_since is None
            now = time.monotonic()
            if first:
                outage.down_since = now
            outage.retry_at = now + self.retry_seconds
        if first:
            logger.warning("cache unavailable (%s): using this process's memory until it is "
                           "back (throttles count per process meanwhile)", type(exc).__name__)

    def _came_back(self) -> None:
        outage = self._outage
        with outage.lock:
            since, outage.down_since = outage.down_since, None
        if since is not None:
            logger.info("cache available again after %.0f s", time.monotonic() - since)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._call(lambda: super(FallbackRedisCache, self).add(key, value, timeout, version),
                          lambda: self._fallback.add(key, value, timeout, version))

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._call(lambda: super(FallbackRedisCache, self).get(key, default, version),
                          lambda: self._fallback.get(key, default, version))

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> None:
        self._call(lambda: super(FallbackRedisCache, self).set(key, value, timeout, version),
                   lambda: self._fallback.set(key, value, timeout, version))

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._call(lambda: super(FallbackRedisCache, self).touch(key, timeout, version),
                          lambda: self._fallback.touch(key, timeout, version))

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._call(lambda: super(FallbackRedisCache, self).delete(key, version),
                          lambda: self._fallback.delete(key, version))

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._call(lambda: super(FallbackRedisCache, self).get_many(keys, version),
                          lambda: self._fallback.get_many(keys, version))

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._call(lambda: super(FallbackRedisCache, self).has_key(key, version),
                          lambda: self._fallback.has_key(key, version))

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        return self._call(lambda: super(FallbackRedisCache, self).incr(key, delta, version),
                          lambda: self._fallback.incr(key, delta, version))

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        return self._call(lambda: super(FallbackRedisCache, self).set_many(data, timeout, version),
                          lambda: self._fallback.set_many(data, timeout, version))

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._call(lambda: super(FallbackRedisCache, self).delete_many(keys, version),
                   lambda: self._fallback.delete_many(keys, version))

    def clear(self) -> None:
        self._fallback.clear()
        self._call(lambda: super(FallbackRedisCache, self).clear(), lambda: None)
