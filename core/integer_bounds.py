"""What an integer column holds, by its model field's type, so that every integer a person or
a client types is bounded by validation before it reaches the database.

PostgreSQL refuses a number past its column's type (a 500 if it gets that far: an invite
link's `max_uses` of 3,000,000,000 into an `integer`); SQLite stores 64 bits whatever the
type. The bounds here are PostgreSQL's types (Django's own table of them), the narrower of
the two, so an input valid on one database is valid on both. The interfaces build their
integer inputs with `form_integer` (web forms) or from these ranges (the API's fields).
"""

from typing import Any

from django import forms
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

BIGINT_MIN, BIGINT_MAX = BaseDatabaseOperations.integer_field_ranges["BigIntegerField"]


def column_range(field: "models.Field[Any, Any]") -> tuple[int, int]:
    """(smallest, largest) value the column of integer model `field` holds on every supported
    database; a relation's is its target's (an id). KeyError for a field that is no integer."""
    while field.is_relation and field.target_field is not None:  # type: ignore[attr-defined]
        field = field.target_field  # type: ignore[attr-defined]
    low, high = BaseDatabaseOperations.integer_field_ranges[field.get_internal_type()]
    return int(low), int(high)


def form_integer(field: "models.Field[Any, Any]", *, min_value: int | None = None,
                 max_value: int | None = None, **kwargs: Any) -> forms.IntegerField:
    """A form field for a value stored in integer model `field` (or looked up by it): bounded
    by what the column holds, narrowed by `min_value`/`max_value` when given; other keyword
    arguments as forms.IntegerField's. A larger number is a form error, never a database one."""
    low, high = column_range(field)
    return forms.IntegerField(min_value=low if min_value is None else max(low, min_value),
                              max_value=high if max_value is None else min(high, max_value),
                              **kwargs)
