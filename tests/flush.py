"""The flush after each transactional test (live server, real worker, subprocess tests), made
cheap: rows deleted rather than tables truncated, and the content types and permissions kept.

Django empties every table after such a test (on PostgreSQL with one TRUNCATE of all its
tables: ~3 s a test on this machine, as every truncated table gets new files) and then writes
the content types and permissions again through the post_migrate signal. Deleting the rows of
small tables is quick on both engines (PostgreSQL checks Django's foreign keys at commit, when
every table is empty); the content types and permissions, which no test changes, stay as
migrate made them, so post_migrate finds them all and writes nothing. A flush asking for reset
sequences or a cascade is Django's own.
"""

from collections.abc import Callable
from typing import Any

KEPT_TABLES = frozenset({"django_content_type", "auth_permission"})


def _deleting(original: Callable[..., list[str]],
              delete_rows: Callable[..., list[str]]) -> Callable[..., list[str]]:
    def sql_flush(self: Any, style: Any, tables: Any, *, reset_sequences: bool = False,
                  allow_cascade: bool = False) -> list[str]:
        if reset_sequences or allow_cascade:
            return original(self, style, tables, reset_sequences=reset_sequences,
                            allow_cascade=allow_cascade)
        return delete_rows(self, style, [table for table in tables if table not in KEPT_TABLES])

    sql_flush.deletes_rows = True  # type: ignore[attr-defined]
    return sql_flush


def install() -> None:
    """Make both engines' flush delete rows, with the DELETE statements of Django's SQLite
    backend (quoted by each engine); idempotent."""
    from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQL
    from django.db.backends.sqlite3.base import DatabaseWrapper as SQLite

    delete_rows = SQLite.ops_class.sql_flush
    for operations in (PostgreSQL.ops_class, SQLite.ops_class):
        if not getattr(operations.sql_flush, "deletes_rows", False):
            operations.sql_flush = _deleting(  # type: ignore[method-assign]
                operations.sql_flush, delete_rows)
