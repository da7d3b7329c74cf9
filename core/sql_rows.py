"""Model instances from the rows of a hand-written statement that joins several tables.

`QuerySet.raw()` builds instances of one model; a statement that reads, say, an enrolment
with its course and a part with its exercise in one go needs several per row. `ModelColumns`
gives the select list of one model under a table alias, and `instances` cuts a row into
that model's instance, with the values converted as the ORM converts them (JSON decoded,
SQLite's text datetimes and uuids parsed), so the instances are the ones a QuerySet gives.
"""

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Field, Model


@dataclass(frozen=True)
class ModelColumns:
    """The concrete columns of `model`, selected from the table aliased `alias`; the fields
    named in `deferred` are left out (their instances load them on first use, as
    `QuerySet.defer` does)."""

    model: type[Model]
    alias: str
    deferred: tuple[str, ...] = ()
    _converters: dict[str, list[tuple[Any, list[Any]]]] = field(
        default_factory=dict, compare=False, repr=False)

    @functools.cached_property
    def fields(self) -> list[Any]:
        """The concrete fields selected, in the model's field order."""
        unknown = set(self.deferred) - {f.name for f in self.model._meta.concrete_fields}
        if unknown or self.model._meta.pk.name in self.deferred:
            raise ValueError(f"cannot defer {sorted(unknown) or 'the key'} of "
                             f"{self.model.__name__}")
        return [f for f in self.model._meta.concrete_fields if f.name not in self.deferred]

    @functools.cached_property
    def names(self) -> list[str]:
        return [f.attname for f in self.fields]

    @functools.cached_property
    def _pk_index(self) -> int:
        return [f.primary_key for f in self.fields].index(True)

    @property
    def select(self) -> str:
        """`alias."column", ...` for every selected field, in the model's field order."""
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(f.column)}" for f in self.fields)

    @property
    def width(self) -> int:
        return len(self.fields)

    def converters(self) -> list[tuple[Any, list[Any]]]:
        """Per field, its column expression and the converters the ORM applies to its value
        read from this database."""
        vendor = connection.vendor
        if vendor not in self._converters:
            self._converters[vendor] = [
                (col, connection.ops.get_db_converters(col) + col.get_db_converters(connection))
                for col in (f.get_col(self.alias) for f in self.fields)]
        return self._converters[vendor]

    def instance(self, values: Sequence[Any]) -> Model | None:
        """The instance for this model's slice of a row; None when its key is NULL (a LEFT
        JOIN that found nothing)."""
        if values[self._pk_index] is None:
            return None
        converted = []
        for value, (col, chain) in zip(values, self.converters(), strict=True):
            for convert in chain:
                value = convert(value, col, connection)
            converted.append(value)
        return self.model.from_db(connection.alias, self.names, converted)


def selects(layout: Sequence[ModelColumns]) -> str:
    """The select lists of `layout`, in order (what `instances` cuts a row by)."""
    return ", ".join(columns.select for columns in layout)


def instances(row: Sequence[Any], layout: Sequence[ModelColumns]) -> tuple[list[Model | None],
                                                                           list[Any]]:
    """Cut `row` (selected as the `layout`'s `select` lists, in order, then any other
    columns) into one instance per layout entry (None for a NULL key) and the other values."""
    models: list[Model | None] = []
    start = 0
    for columns in layout:
        models.append(columns.instance(row[start:start + columns.width]))
        start += columns.width
    return models, list(row[start:])


def row_instances(sql: str, params: Sequence[Any], layout: Sequence[ModelColumns],
                  ) -> tuple[list[Model | None], list[Any]] | None:
    """Run `sql` (selecting the `layout`'s `select` lists, in order, then any other columns)
    and cut its first row as `instances` does; None when it finds no row."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else instances(row, layout)


def value_from_db(value: Any, model: type[Model], name: str) -> Any:
    """`value`, read by a plain cursor from the column of `model`'s field `name`, converted as
    the ORM converts it (SQLite's text datetimes parsed and made aware, JSON decoded, ...)."""
    col = _concrete(model, name).get_col(model._meta.db_table)
    for convert in connection.ops.get_db_converters(col) + col.get_db_converters(connection):
        value = convert(value, col, connection)
    return value


def _concrete(model: type[Model], name: str) -> "Field[Any, Any]":
    """The concrete field `name` (or attname) of `model`; ValueError for anything else."""
    found = model._meta.get_field(name)
    if not isinstance(found, Field) or not found.concrete:
        raise ValueError(f"{model.__name__}.{name} is not a concrete field")
    return found


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
