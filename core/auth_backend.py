"""Django's ModelBackend, with the user of every signed-in request read by hand.

Every signed-in request loads its user (`django.contrib.auth.get_user` ->
`backend.get_user`). Through the ORM (`User.objects.get(pk=...)`) that cost about 0.6 ms of
Python for a one-row read by primary key (docs/scaling.md, "CPU per request, by
endpoint"); here it is one uncompiled statement. Signing in, permissions and everything else
are ModelBackend's.

Sessions signed in before this backend existed name Django's ModelBackend; the session store
(core/sessions.py) reads them as signed in through this one (`backend_path_current`).
"""

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connection

from core.sql_rows import ModelColumns

#: This backend's path, as sessions store it.
USER_BACKEND = "core.auth_backend.UserBackend"
#: The backend sessions signed in before named.
LEGACY_BACKEND = "django.contrib.auth.backends.ModelBackend"

_USER = ModelColumns(User, "u")
_USER_SQL = f"SELECT {_USER.select} FROM {User._meta.db_table} u WHERE u.id = %s"  # noqa: S608


class UserBackend(ModelBackend):
    """ModelBackend whose `get_user` is one hand-written statement."""

    def get_user(self, user_id: Any) -> User | None:
        """The active user with this id (as stored in the session), else None, as
        ModelBackend's `get_user` gives it."""
        try:
            pk = User._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        with connection.cursor() as cursor:
            cursor.execute(_USER_SQL, [pk])
            row = cursor.fetchone()
        user = None if row is None else _USER.instance(row)
        return user if isinstance(user, User) and self.user_can_authenticate(user) else None


def backend_path_current(path: Any) -> Any:
    """The backend path a session names, as this service reads it: Django's ModelBackend
    (sessions signed in before) is this module's UserBackend; any other path unchanged."""
    return USER_BACKEND if path == LEGACY_BACKEND else path
