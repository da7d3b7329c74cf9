"""Database connection settings from the environment: persistent connections or a pool.

`connection_settings` is called by base.py on the `DATABASES["default"]` that `DATABASE_URL`
gives. What each setting costs in connections is in docs/scaling.md.
"""

from typing import Any

import environ


def connection_settings(database: dict[str, Any], env: environ.Env) -> dict[str, Any]:
    """`database` with its connection settings from the environment:

    - `CONN_MAX_AGE` (default 60): seconds a process keeps its connection (0: one per
      request or task);
    - `DB_POOL` (default off): on PostgreSQL, a psycopg connection pool per process
      (`DB_POOL_MIN_SIZE` 1, `DB_POOL_MAX_SIZE` 4, `DB_POOL_TIMEOUT` 10 s to wait for a free
      connection). Django's pool does not combine with persistent connections, so with the
      pool CONN_MAX_AGE is 0 (connections go back to the pool after each request). Ignored
      on SQLite;
    - `DB_SERVER_SIDE_BINDING` (default on) and `DB_PREPARE_THRESHOLD` (default 5, `off`:
      never): on PostgreSQL, values bound on the server and a statement prepared once run
      that many times on a connection (behind PgBouncer before 1.21 in transaction mode:
      `off`);
    - `DB_DISABLE_SERVER_SIDE_CURSORS` (default off): on behind PgBouncer in transaction
      pooling mode, where a server-side cursor opened outside a transaction breaks;
    - on SQLite, a writer waits for the lock instead of failing (a web server and a worker
      write to the same file).
    """
    database = {**database, "ATOMIC_REQUESTS": False, "CONN_HEALTH_CHECKS": True}
    options = dict(database.get("OPTIONS", {}))
    database["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    if database["ENGINE"] == "django.db.backends.postgresql" and env.bool("DB_POOL", default=False):
        options["pool"] = {
            "min_size": env.int("DB_POOL_MIN_SIZE", default=1),
            "max_size": env.int("DB_POOL_MAX_SIZE", default=4),
            "timeout": env.float("DB_POOL_TIMEOUT", default=10.0),
        }
        database["CONN_MAX_AGE"] = 0
    # Parameters sent apart from the statement, so that psycopg prepares a statement run
    # `DB_PREPARE_THRESHOLD` times on a connection and PostgreSQL stops planning it again
    # (planning cost more than running most of the answer path's statements).
    if database["ENGINE"] == "django.db.backends.postgresql" and env.bool(
            "DB_SERVER_SIDE_BINDING", default=True):
        options["server_side_binding"] = True
        threshold = env.str("DB_PREPARE_THRESHOLD", default="5")
        options["prepare_threshold"] = None if threshold in ("", "off") else int(threshold)
    if env.bool("DB_DISABLE_SERVER_SIDE_CURSORS", default=False):
        database["DISABLE_SERVER_SIDE_CURSORS"] = True
    if database["ENGINE"] == "django.db.backends.sqlite3":
        options.update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
    if options:
        database["OPTIONS"] = options
    return database
