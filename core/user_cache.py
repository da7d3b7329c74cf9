"""The signed-in user of each request, read from the shared cache; flushed on save.

Every signed-in request loads its user (`django.contrib.auth.get_user` ->
`backend.get_user`). `CachedUserBackend` is Django's ModelBackend whose `get_user` reads
the user from the Django cache, and from the database (one compiled query) only when the
cache has no copy. The copy is deleted whenever the user is saved or deleted (the receivers
connected by `core.apps`) and by `user_cache_flush` after a bulk write of users, so a
password change, a deactivation or a new name is seen by the next request. Signing in and
permissions are ModelBackend's.
"""

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db.models.signals import post_delete, post_save

from core.compiled_query import CompiledQuery

#: This backend's path, as sessions store it.
USER_BACKEND = "core.user_cache.CachedUserBackend"
#: How long a copy is kept without a save (a save deletes it at once).
USER_CACHE_SECONDS = 3600

_USER = CompiledQuery(lambda pk: User.objects.filter(pk=pk)[:1], pk=int)


def _key(pk: Any) -> str:
    return f"user:{pk}"


class CachedUserBackend(ModelBackend):
    """ModelBackend whose `get_user` reads the shared cache first."""

    def get_user(self, user_id: Any) -> User | None:
        """The active user with this id (as stored in the session), else None, as
        ModelBackend's `get_user` gives it; no query when the cache has the user."""
        try:
            pk = User._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        if not isinstance(pk, int):
            return None
        user = cache.get(_key(pk))
        if user is None:
            user = _USER.first(pk=pk)
            if user is not None:
                cache.set(_key(pk), user, USER_CACHE_SECONDS)
        return user if isinstance(user, User) and self.user_can_authenticate(user) else None


def user_cache_flush(user_ids: Iterable[Any]) -> None:
    """Forget the cached copies of these users (after a write that sends no signal:
    `QuerySet.update`, `bulk_update`)."""
    cache.delete_many([_key(pk) for pk in user_ids])


def _flushed_on_write(sender: Any, instance: User, **kwargs: Any) -> None:
    user_cache_flush([instance.pk])


def user_cache_connect() -> None:
    """Flush a user's copy whenever the user is saved or deleted (called once, at start)."""
    post_save.connect(_flushed_on_write, sender=User, dispatch_uid="user-cache-save")
    post_delete.connect(_flushed_on_write, sender=User, dispatch_uid="user-cache-delete")
