"""Data that changes only at sync or by a staff edit, read from a per-process and a shared
cache keyed by the content version.

Courses, the modules they run with their dates and weights, parts with their exercise, labs
with their section, deadlines and the deadline policy, LMS contexts and webhook listeners
change rarely and are read by nearly every student request. `content_cached(key, load)`
returns the value `load()` gave for `key` under the current content version: from this
process's memory, else from the Django cache (shared by the processes), else by calling
`load`. The version is one token in the Django cache; `content_version_bump` replaces it,
so every earlier entry is dead at once, in every process.

Who bumps: every write of a watched model (`content_watch`, called by each app for its
models at start) bumps on `post_save` and `post_delete`; the bulk writes that send no
signal (`QuerySet.update`, `bulk_create`, `bulk_update`) bump through the model's
`VersionedQuerySet`; a watched model whose QuerySet is another (a library's) is written in
bulk only by functions that call `content_version_bump` themselves, which
tests/core/test_content_version_writers.py checks by reading every module. A bump
inside a transaction is made again when it commits, so a process that read the old rows
between the two bumps does not keep them. Entries also expire after CONTENT_CACHE_SECONDS.
"""

import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.core.cache import cache
from django.db import models, transaction
from django.db.models import Model
from django.db.models.signals import post_delete, post_save

T = TypeVar("T")

VERSION_KEY = "content-version"
#: How long an entry lives without a bump (a safety net; a bump ends it at once).
CONTENT_CACHE_SECONDS = 600
#: Entries kept per process before the oldest version's are dropped.
_LOCAL_LIMIT = 5000

_local: dict[tuple[str, str], tuple[float, Any]] = {}
_lock = threading.Lock()
_MISSING = object()
#: The models whose writes bump the version (filled by `content_watch`).
WATCHED: list[type[Model]] = []


def content_version() -> str:
    """The current content version (a new one if the cache has lost it)."""
    version = cache.get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, uuid.uuid4().hex, None)
        version = cache.get(VERSION_KEY) or uuid.uuid4().hex
    return str(version)


def _bump() -> None:
    cache.set(VERSION_KEY, uuid.uuid4().hex, None)


def content_version_bump() -> None:
    """End every cached entry: now, and again when the current transaction commits."""
    _bump()
    transaction.on_commit(_bump)


def content_cached(key: str, load: Callable[[], T]) -> T:
    """`load()`'s value for `key` under the current content version, loaded at most once
    per version across the processes sharing the Django cache (no query when cached). The
    value must pickle (model instances do)."""
    version = content_version()
    now = time.monotonic()
    found = _local.get((version, key))
    if found is not None and found[0] > now:
        return cast(T, found[1])
    shared_key = f"content:{version}:{key}"
    value = cache.get(shared_key, _MISSING)
    if value is _MISSING:
        value = load()
        cache.set(shared_key, value, CONTENT_CACHE_SECONDS)
    with _lock:
        if len(_local) >= _LOCAL_LIMIT:
            _local.clear()
        _local[(version, key)] = (now + CONTENT_CACHE_SECONDS, value)
    return cast(T, value)


class VersionedQuerySet(models.QuerySet):
    """The QuerySet of a watched model: its bulk writes, which send no signal, bump the
    content version too (`update`, `bulk_create`, `bulk_update`; a deletion sends
    `post_delete` for each row while a receiver is connected)."""

    def update(self, **kwargs: Any) -> int:
        changed = super().update(**kwargs)
        content_version_bump()
        return changed

    def bulk_create(self, *args: Any, **kwargs: Any) -> Any:
        created = super().bulk_create(*args, **kwargs)
        content_version_bump()
        return created

    def bulk_update(self, *args: Any, **kwargs: Any) -> int:
        changed = super().bulk_update(*args, **kwargs)
        content_version_bump()
        return changed


def content_cache_reset() -> None:
    """Forget every entry of this process and start a new version (tests, operators)."""
    with _lock:
        _local.clear()
    _bump()


def _bumped_on_write(sender: Any, **kwargs: Any) -> None:
    content_version_bump()


def content_watch(*models: type[Model]) -> None:
    """Bump the content version on every save and deletion of `models` (each app calls it
    for its rarely changing models in its `ready`)."""
    for model in models:
        if model not in WATCHED:
            WATCHED.append(model)
        uid = f"content-version-{model._meta.label}"
        post_save.connect(_bumped_on_write, sender=model, dispatch_uid=f"{uid}-save")
        post_delete.connect(_bumped_on_write, sender=model, dispatch_uid=f"{uid}-delete")
