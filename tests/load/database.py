"""`python -m tests.load.database`: create the load test's PostgreSQL database if missing.

Each run seeds a class of its own (tests/load/seed.py, `--run`), so the database is kept
between runs: dropping one waits for every other session on the server to acknowledge
(PostgreSQL's ProcSignalBarrier), which a session stuck elsewhere can hold up for minutes.
The database is DATABASE_URL's; its name must contain "load", so that a mistyped URL never
points the load test (which adds a table of its own) at the service's database.
"""

import os
import sys
from urllib.parse import urlsplit

import psycopg
from psycopg import sql


def database_ensure(url: str) -> str:
    """Create the database named by `url` unless it exists; returns its name.
    Raises ValueError when the URL is not PostgreSQL or the name lacks "load"."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not parts.scheme.startswith("postgres") or "load" not in name:
        raise ValueError(f"refusing to use {name!r}: a PostgreSQL database whose name "
                         "contains 'load' is needed")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                    [name]).fetchone()
        if not exists:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return name


if __name__ == "__main__":
    try:
        print(f"· database {database_ensure(os.environ['DATABASE_URL'])}")
    except ValueError as exc:
        sys.exit(str(exc))
