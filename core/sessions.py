"""The database session store with its read written by hand.

Every signed-in request reads its session first. Through the ORM
(`Session.objects.get(session_key=..., expire_date__gt=now)`) that read cost about 0.9 ms
of Python for well under 0.1 ms of database work (docs/scaling.md, "CPU per request, by
endpoint"); here it is one uncompiled statement. Everything else (saving, deleting,
cycling keys, the table itself) is Django's database store, so the sessions stored before
are read the same way: `SESSION_ENGINE = "core.sessions"`. The one difference: a session
signed in through Django's ModelBackend reads as signed in through its subclass
`core.auth_backend.UserBackend`, which reads the user by hand too.
"""

from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.utils import timezone

from core.auth_backend import backend_path_current
from core.sql_rows import ModelColumns

_SESSION = ModelColumns(Session, "s")


class SessionStore(DatabaseSessionStore):
    """Django's database session store; `load` reads the row with one plain statement."""

    def load(self) -> dict[str, Any]:
        """The session's data; a session signed in through Django's ModelBackend reads as
        signed in through `core.auth_backend.UserBackend` (unchanged in the database)."""
        data = super().load()
        if BACKEND_SESSION_KEY in data:
            data[BACKEND_SESSION_KEY] = backend_path_current(data[BACKEND_SESSION_KEY])
        return data

    def _get_session_from_db(self) -> Any:
        """The stored, unexpired session of this key, as the ORM's instance; None (and the
        key forgotten, as Django's store does) when there is none."""
        key = self.session_key
        if not key:  # Django's store looks up "" and None too, and finds nothing
            self._session_key = None
            return None
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {_SESSION.select} FROM {Session._meta.db_table} s "  # noqa: S608
                "WHERE s.session_key = %s AND s.expire_date > %s",
                [key, connection.ops.adapt_datetimefield_value(timezone.now())])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        return _SESSION.instance(row)
