"""Database query metrics without replacing Django's database backends.

Every connection gets an execute wrapper (Django's `connection.execute_wrappers`) that
counts statements, errors and time into django-prometheus's own metrics
(django_db_execute_total, django_db_execute_many_total, django_db_errors_total,
django_db_query_duration_seconds, django_db_new_connections_total), so its dashboards work
while DATABASES keeps Django's engines (the settings and tests that look at ENGINE stay true).
"""

import time
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django_prometheus.db import (
    connections_total,
    errors_total,
    execute_many_total,
    execute_total,
    query_duration_seconds,
)


class QueryMetrics:
    """An execute wrapper that observes each statement of one connection alias."""

    def __init__(self, alias: str, vendor: str) -> None:
        self.labels = {"alias": alias, "vendor": vendor}
        # The labelled series, looked up once per connection instead of three times a
        # statement (each lookup takes a lock; an answer runs about fifteen statements).
        self._executed = execute_total.labels(**self.labels)
        self._executed_many = execute_many_total.labels(**self.labels)
        self._duration = query_duration_seconds.labels(**self.labels)

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        except Exception as exc:
            errors_total.labels(**self.labels, type=type(exc).__name__).inc()
            raise
        finally:
            self._executed.inc()
            if many:
                self._executed_many.inc(len(params) if params else 0)
            self._duration.observe(time.perf_counter() - started)


def _instrument(sender: Any, connection: BaseDatabaseWrapper, **_: Any) -> None:
    connections_total.labels(connection.alias, connection.vendor).inc()
    if not any(isinstance(wrapper, QueryMetrics) for wrapper in connection.execute_wrappers):
        # First in the list (outermost): Django's execute_wrapper() context manager pops the
        # last one, which must stay its own even when the connection opens inside it.
        connection.execute_wrappers.insert(0, QueryMetrics(connection.alias, connection.vendor))


def database_metrics_connect() -> None:
    """Instrument every database connection from now on (from OpsConfig.ready)."""
    connection_created.connect(_instrument, dispatch_uid="ops-database-metrics")
