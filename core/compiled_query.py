"""ORM querysets compiled once per process and database, then run with new parameters.

Building a QuerySet (filters, joins, lookups) and compiling it to SQL costs 1 to 5 ms of
Python, often more than the database's work on a one-row read. A `CompiledQuery` builds its
QuerySet once per database with a stand-in value for each named parameter, keeps the
compiled statement and the positions of those stand-ins among its parameters, and then
runs it with the caller's values: the rows are cut into model instances (`Model.from_db`,
with their `select_related` objects and annotations) exactly as the QuerySet's own
iteration cuts them. The ORM stays the one definition of the columns and lookups; a column
renamed in a model is in the statement the next time the process starts.

The contract of a parameter: its value reaches the statement unchanged (an `exact`, `in`
of one, `gt`, ... lookup on an integer or text field, a `LIMIT` fixed in the build); a
lookup that rewrites the value (`icontains`) cannot be a parameter, and building refuses a
stand-in it cannot find among the statement's parameters.
"""

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar, cast

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.models.sql.compiler import SQLCompiler
from django.db.models.sql.constants import MULTI

M = TypeVar("M", bound=Model)

#: Stand-in values, one per parameter kind; each parameter gets its own (offset by its
#: index), far from any value a statement's constants use.
#: Within a 32-bit integer column: an out-of-range lookup compiles to no statement at all.
_INT_BASE = -2_091_327_011
_TEXT_MARK = "\x00compiled-query-parameter:{}\x00"
_TIME_BASE = datetime(1001, 1, 1, tzinfo=UTC)


def _stand_in(kind: type, index: int) -> Any:
    if kind is int:
        return _INT_BASE - index
    if kind is str:
        return _TEXT_MARK.format(index)
    if kind is datetime:
        return _TIME_BASE.replace(microsecond=index + 1)
    raise TypeError(f"a compiled query's parameter is an int, str or datetime, not {kind}")


@dataclass(frozen=True)
class _Compiled:
    compiler: SQLCompiler
    sql: str
    params: tuple[Any, ...]
    #: Per parameter position: the parameter's name and how its value is adapted.
    slots: tuple[tuple[int, str, Callable[[Any], Any]], ...]


class CompiledQuery(Generic[M]):
    """`build(**stand_ins)` returns the QuerySet (or `values_list` query); `kinds` names its
    parameters and their types (int, str or datetime). Compiled on first use per database
    alias, then run with `rows`, `first` or `values`."""

    def __init__(self, build: Callable[..., "QuerySet[M, Any]"], **kinds: type) -> None:
        self._build = build
        self._kinds = kinds
        self._compiled: dict[str, _Compiled] = {}

    def _compile(self, using: str) -> _Compiled:
        found = self._compiled.get(using)
        if found is not None:
            return found
        connection = connections[using]
        stand_ins = {name: _stand_in(kind, i) for i, (name, kind)
                     in enumerate(self._kinds.items())}
        queryset = self._build(**stand_ins).using(using)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        adapters: list[tuple[Any, str, Callable[[Any], Any]]] = []
        adapt_time: Callable[[Any], Any] = connection.ops.adapt_datetimefield_value
        for name, value in stand_ins.items():
            adapters.append((value, name, lambda v: v))
            if isinstance(value, datetime):
                adapters.append((adapt_time(value), name, adapt_time))
        slots = []
        for position, param in enumerate(params):
            for value, name, adapt in adapters:
                if type(param) is type(value) and param == value:
                    slots.append((position, name, adapt))
        missing = set(self._kinds) - {name for _, name, _ in slots}
        if missing:
            raise ValueError(f"parameters {sorted(missing)} do not reach the statement "
                             "unchanged; they cannot be compiled parameters")
        compiled = _Compiled(compiler=compiler, sql=sql, params=tuple(params),
                             slots=tuple(slots))
        self._compiled[using] = compiled
        return compiled

    def _executed(self, using: str, values: dict[str, Any]) -> tuple[SQLCompiler, Any]:
        if values.keys() != self._kinds.keys():
            raise TypeError(f"expected parameters {sorted(self._kinds)}, got {sorted(values)}")
        compiled = self._compile(using)
        params = list(compiled.params)
        for position, name, adapt in compiled.slots:
            params[position] = adapt(values[name])
        compiler = copy.copy(compiled.compiler)
        compiler.connection = connections[using]  # this thread's (connections are per thread)
        sql = compiled.sql
        compiler.as_sql = lambda *args, **kwargs: (sql, tuple(params))  # type: ignore[method-assign]
        return compiler, compiler.execute_sql(MULTI, chunked_fetch=False)

    def rows(self, using: str = "default", **values: Any) -> list[M]:
        """The model instances the QuerySet would give with these parameter values."""
        compiler, results = self._executed(using, values)
        return cast(list[M], list(_instances(compiler, results, using)))

    def first(self, using: str = "default", **values: Any) -> M | None:
        """The first instance (None when none): build the QuerySet with its order and `[:1]`."""
        return next(iter(self.rows(using, **values)), None)

    def values(self, using: str = "default", **values: Any) -> list[tuple[Any, ...]]:
        """The converted rows of a `values_list` query with these parameter values."""
        compiler, results = self._executed(using, values)
        return [tuple(row) for row in compiler.results_iter(results)]


def _instances(compiler: SQLCompiler, results: Any, using: str) -> Iterator[Model]:
    """Cut the rows as `django.db.models.query.ModelIterable` does."""
    select, klass_info = compiler.select, compiler.klass_info
    annotations = compiler.annotation_col_map or {}
    if klass_info is None:
        raise TypeError("rows() and first() run model querysets; use values()")
    model = klass_info["model"]
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    names = [column[0].target.attname for column in select[start:end]]
    populators = get_related_populators(klass_info, select, using)
    for row in compiler.results_iter(results):
        instance = model.from_db(using, names, row[start:end])
        for populator in populators:
            populator.populate(row, instance)
        for name, position in annotations.items():
            setattr(instance, name, row[position])
        yield cast(Model, instance)

