"""The demo's SQL: bulk loads of generated rows, and the statistics refreshed after them.

`rows_write` writes many new rows with the times given (the ORM's `auto_now_add` would
overwrite them): PostgreSQL's COPY, else batched INSERTs. Table and column names come from
the models (`core.sql.column`), so a renamed column needs no edit here.
"""

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.db import connection
from django.db.models import Model

from core.sql import column, table


def _copy(model: type[Model], fields: tuple[str, ...], rows: Iterator[tuple[Any, ...]],
          progress: Callable[[int], None]) -> int:
    """Write `rows` with PostgreSQL's COPY (psycopg's cursor.copy); returns the count."""
    columns = ", ".join(column(model, name) for name in fields)
    written = 0
    with connection.cursor() as cursor:
        raw = cursor.cursor  # the psycopg cursor under Django's wrapper
        with raw.copy(f"COPY {table(model)} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
                written += 1
                if written % 20000 == 0:
                    progress(written)
    progress(written)
    return written


def _insert(model: type[Model], fields: tuple[str, ...], rows: Iterator[tuple[Any, ...]],
            progress: Callable[[int], None], batch: int = 5000) -> int:
    """Write `rows` with batched INSERTs (SQLite)."""
    columns = ", ".join(column(model, name) for name in fields)
    marks = ", ".join(["%s"] * len(fields))
    # Only the model's own table and column names are put into the statement.
    sql = f"INSERT INTO {table(model)} ({columns}) VALUES ({marks})"  # noqa: S608
    written, chunk = 0, []
    with connection.cursor() as cursor:
        for row in rows:
            chunk.append(row)
            if len(chunk) >= batch:
                cursor.executemany(sql, chunk)
                written += len(chunk)
                chunk = []
                progress(written)
        if chunk:
            cursor.executemany(sql, chunk)
            written += len(chunk)
    progress(written)
    return written


def rows_write(model: type[Model], fields: tuple[str, ...], rows: Iterator[tuple[Any, ...]],
               progress: Callable[[int], None]) -> int:
    """Write `rows` (values of `fields`, by field name or attname) into `model`'s table as
    given; `progress(written)` as they go. Returns how many."""
    if connection.vendor == "postgresql":
        return _copy(model, fields, rows, progress)
    return _insert(model, fields, rows, progress)


def tables_analyze(models: Iterable[type[Model]]) -> None:
    """After a bulk load on PostgreSQL, as autovacuum would do later: VACUUM (ANALYZE) the
    `models`' tables (which sets the visibility map, so the dashboard's covering indexes are
    read without the table), or only ANALYZE inside a transaction. Nothing elsewhere."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        if connection.in_atomic_block:  # VACUUM cannot run in a transaction
            cursor.execute("ANALYZE")
            return
        for model in models:
            cursor.execute(f"VACUUM (ANALYZE) {table(model)}")
        cursor.execute("ANALYZE")
