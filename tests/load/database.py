"""`python -m tests.load.database`: drop and create the load test's PostgreSQL database.

The load test needs a fresh database each run (its students must not have answered yet).
The database is DATABASE_URL's; its name must contain "load", so that a mistyped URL can
never drop the service's own database.
"""

import os
import sys
from urllib.parse import urlsplit

import psycopg
from psycopg import sql


def database_recreate(url: str) -> str:
    """Drop (if it exists) and create the database named by `url`; returns its name.
    Raises ValueError when the URL is not PostgreSQL or the name lacks "load"."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not parts.scheme.startswith("postgres") or "load" not in name:
        raise ValueError(f"refusing to recreate {name!r}: a PostgreSQL database whose name "
                         "contains 'load' is needed")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
            sql.Identifier(name)))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return name


if __name__ == "__main__":
    try:
        print(f"· fresh database {database_recreate(os.environ['DATABASE_URL'])}")
    except ValueError as exc:
        sys.exit(str(exc))
