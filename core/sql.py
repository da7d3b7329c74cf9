"""Core's SQL: statements built from a model's own metadata, for the writes and reads the
ORM makes too slow on the hot and bulk paths.

Every table and column name comes from the model (`_meta`, each field's `column`), so a
column renamed with `db_column` needs no edit here; every value is a parameter. The one
place besides each app's `sql.py` where a cursor runs SQL (tests/core/test_sql_scan.py).

- `row_values_update`, `row_update`, `row_insert`: one row's UPDATE or INSERT without the
  ORM's compilation (the answer path's writes of the submission and the progress row).
- `rows_save`: many rows' UPDATE of the same fields in one `executemany` (Django's
  `bulk_update` builds a CASE per row and field).
- `raw_rows`, `chunked_rows`: a `values_list` query's rows read straight from the cursor,
  without the ORM's per-value converters (large aggregates and exports).
- `copy_rows`: PostgreSQL's COPY of many new rows (rebuilds, bulk loads).
"""

import json
from collections.abc import Iterator, Sequence
from typing import Any

from django.db import connection, connections
from django.db.models import Field, Model, QuerySet


def _concrete(model: type[Model], name: str) -> "Field[Any, Any]":
    """The concrete field `name` (or attname) of `model`; ValueError for anything else."""
    found = model._meta.get_field(name)
    if not isinstance(found, Field) or not found.concrete:
        raise ValueError(f"{model.__name__}.{name} is not a concrete field")
    return found


def column(model: type[Model], name: str) -> str:
    """The quoted column of `model`'s concrete field `name` (or attname), for a statement."""
    return connection.ops.quote_name(_concrete(model, name).column)


def table(model: type[Model]) -> str:
    """The quoted table of `model`, for a statement."""
    return connection.ops.quote_name(model._meta.db_table)


def row_values_update(model: type[Model], pk: Any, values: dict[str, Any]) -> int:
    """UPDATE the row of `model` whose key is `pk`, setting each concrete field named in
    `values` (name or attname) to its value, prepared for the database as `QuerySet.update`
    prepares it; returns the number of rows changed (0: no such row). One statement,
    without the ORM's compilation (the answer path's hottest writes). Plain values only
    (no F() expressions), and no field with auto_now (nothing runs pre_save here)."""
    opts = model._meta
    quote = connection.ops.quote_name
    chosen = [(_concrete(model, name), value) for name, value in values.items()]
    for f, value in chosen:
        if getattr(f, "auto_now", False) or hasattr(value, "resolve_expression"):
            raise ValueError(f"row_values_update cannot set {f.name} to {value!r}")
    assignments = ", ".join(f"{quote(f.column)} = %s" for f, _ in chosen)
    params = [f.get_db_prep_save(value, connection) for f, value in chosen]
    # Only the model's own table and column names are put into the statement.
    sql = (f"UPDATE {quote(opts.db_table)} SET {assignments} "  # noqa: S608
           f"WHERE {quote(opts.pk.column)} = %s")
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, pk])
        return cursor.rowcount


def row_update(instance: Model, fields: Sequence[str]) -> int:
    """`row_values_update` with the current values of `instance`'s `fields`: what
    `instance.save(update_fields=fields)` stores, in one uncompiled statement."""
    return row_values_update(type(instance), instance.pk,
                             {name: getattr(instance, _concrete(type(instance), name).attname)
                              for name in fields})


def row_insert(instance: Model) -> None:
    """INSERT the new `instance` (its key not set) in one uncompiled statement, as
    `instance.save()` inserts it: every concrete field but the auto key, each value through
    the field's `pre_save` (`auto_now_add` times) and prepared for the database; then sets
    the key it got. No signals are sent (the models it is used for have no receivers)."""
    opts = type(instance)._meta
    if instance.pk is not None or opts.auto_field is None:
        raise ValueError("row_insert stores a new row of a model with an auto key")
    quote = connection.ops.quote_name
    fields = [f for f in opts.local_concrete_fields if f is not opts.auto_field]
    params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    key = quote(opts.pk.column)
    returning = f" RETURNING {key}" if connection.features.can_return_columns_from_insert else ""
    # Only the model's own table and column names are put into the statement.
    sql = (f"INSERT INTO {quote(opts.db_table)} ({', '.join(quote(f.column) for f in fields)}) "  # noqa: S608
           f"VALUES ({', '.join(['%s'] * len(fields))}){returning}")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias


def rows_save(model: type[Model], rows: Sequence[Model], fields: Sequence[str]) -> None:
    """Store `fields` of each of `rows` (instances of `model`): one plain UPDATE statement
    executed for every row at once (Django's bulk_update builds a CASE expression per row
    and field, which cost 80% of a reveal's time at 100 rows)."""
    if not rows:
        return
    opts = model._meta
    columns = [_concrete(model, name) for name in fields]
    quote = connection.ops.quote_name
    sets = ", ".join(f"{quote(column.column)} = %s" for column in columns)
    # Only the model's own table and column names are put into the statement.
    sql = f"UPDATE {quote(opts.db_table)} SET {sets} WHERE {quote(opts.pk.column)} = %s"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.executemany(sql, [
            [column.get_db_prep_save(getattr(row, column.attname), connection)
             for column in columns] + [row.pk] for row in rows])


def raw_rows(queryset: "QuerySet[Any, Any]") -> list[tuple[Any, ...]]:
    """The rows of a values_list query read straight from the cursor, without the ORM's
    per-value converters (which cost more than a large aggregate itself: about 15 us a row
    on SQLite); the caller converts what needs it (SQLite's text datetimes)."""
    sql, params = queryset.query.sql_with_params()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def chunked_rows(queryset: "QuerySet[Any, Any]", size: int) -> Iterator[list[tuple[Any, ...]]]:
    """The rows of a values_list query, `size` at a time, through a chunked cursor
    (server-side on PostgreSQL), without the ORM's per-value converters."""
    sql, params = queryset.query.sql_with_params()
    with connections[queryset.db].chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while chunk := cursor.fetchmany(size):
            yield chunk


def copy_rows(model: type[Model], fields: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Insert `rows` (values of `fields`, by field name or attname) with PostgreSQL's COPY;
    dict values are written as JSON."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(_concrete(model, name).column) for name in fields)
    table = quote(model._meta.db_table)
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row([json.dumps(v) if isinstance(v, dict) else v for v in row])
