"""Per-table row counts and content digests, and the Django migrations a database records.

A table's digest is the sum, modulo 2**64, of a 64-bit hash of each row: it does not depend
on the order rows come back in, changes when any value of any row changes, and needs no
memory per row. On SQLite each row is hashed in Python (SHA-256 of the row as read by the
plain sqlite3 module); on PostgreSQL in SQL (MD5 of the row's text form), so the table never
leaves the server. Digests are therefore compared only between databases of one engine.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path
from typing import Any

from backups.manifest import TableState

MODULUS = 1 << 64
MIGRATIONS_TABLE = "django_migrations"
# Rows and digest of one table: the first 64 bits of each row's MD5, as signed bigints, summed.
_POSTGRES_TABLE_STATE = (
    "SELECT count(*), coalesce(sum(('x' || substr(md5(backup_row__::text), 1, 16))"
    "::bit(64)::bigint::numeric), 0) FROM {table} AS backup_row__"
)


def _quote(name: str) -> str:
    """An SQL identifier, double-quoted (the same rule on SQLite and PostgreSQL)."""
    return '"' + name.replace('"', '""') + '"'


def sqlite_open_read_only(path: Path, *, timeout: float = 20.0) -> sqlite3.Connection:
    """A plain sqlite3 connection to the file at `path`, read-only, values as stored (no
    Django converters), waiting up to `timeout` s for a writer's lock."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=timeout)


def sqlite_tables(db: sqlite3.Connection) -> list[str]:
    """The tables of a SQLite database, without SQLite's own (sqlite_sequence, ...)."""
    rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                      "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
    return [name for (name,) in rows]


def sqlite_inventory(path: Path) -> dict[str, TableState]:
    """Every table of the SQLite file at `path` with its row count and digest."""
    with closing(sqlite_open_read_only(path)) as db:
        return {table: _sqlite_table_state(db, table) for table in sqlite_tables(db)}


def _sqlite_table_state(db: sqlite3.Connection, table: str) -> TableState:
    count = total = 0
    cursor = db.execute(f"SELECT * FROM {_quote(table)}")  # noqa: S608 (a table name, quoted)
    while rows := cursor.fetchmany(1000):
        for row in rows:
            count += 1
            total += int.from_bytes(hashlib.sha256(repr(row).encode()).digest()[:8], "big")
    return TableState(rows=count, digest=f"{total % MODULUS:016x}")


def sqlite_migrations(path: Path) -> dict[str, list[str]]:
    """The migrations the SQLite file at `path` records as applied, by app label."""
    with closing(sqlite_open_read_only(path)) as db:
        if MIGRATIONS_TABLE not in sqlite_tables(db):
            return {}
        return _by_app(db.execute(f"SELECT app, name FROM {MIGRATIONS_TABLE}"))  # noqa: S608


def postgres_inventory(cursor: Any, tables: Iterable[str]) -> dict[str, TableState]:
    """Each of `tables` with its row count and digest, read through `cursor` (a DB-API
    cursor on PostgreSQL; inside a transaction, all of them from its one snapshot)."""
    states = {}
    for table in sorted(tables):
        cursor.execute(_POSTGRES_TABLE_STATE.format(table=_quote(table)))  # a quoted name
        count, total = cursor.fetchone()
        states[table] = TableState(rows=int(count), digest=f"{int(total) % MODULUS:016x}")
    return states


def postgres_migrations(cursor: Any, tables: Iterable[str]) -> dict[str, list[str]]:
    """The migrations recorded as applied, read through `cursor`, by app label."""
    if MIGRATIONS_TABLE not in set(tables):
        return {}
    cursor.execute(f"SELECT app, name FROM {MIGRATIONS_TABLE}")  # noqa: S608
    return _by_app(cursor.fetchall())


def _by_app(rows: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    applied: dict[str, list[str]] = defaultdict(list)
    for app, name in rows:
        applied[app].append(name)
    return {app: sorted(names) for app, names in sorted(applied.items())}
