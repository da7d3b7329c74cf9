"""`python -m tests.load.database`: create the load test's PostgreSQL database if missing;
`python -m tests.load.database --analyze`: refresh its planner statistics (VACUUM ANALYZE)
when the server's autovacuum is off, as autovacuum would.

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


def statistics_refresh(url: str) -> bool:
    """VACUUM ANALYZE the database of `url` if the server runs without autovacuum; returns
    whether it did.

    The load test seeds thousands of students, then adds tens of thousands of answers. A
    server with autovacuum on (PostgreSQL's default, and production's: docs/operations.md)
    analyses those tables as they grow; with it off (some test machines), the planner keeps
    estimating the empty tables of the seed, one row each, and picks nested loops that
    made one dashboard page cost seconds of the database's CPU during the rush.
    """
    with psycopg.connect(url, autocommit=True) as connection:
        setting, = connection.execute("SHOW autovacuum").fetchone() or ("on",)
        if setting == "on":
            return False
        connection.execute("VACUUM ANALYZE")
    return True


if __name__ == "__main__":
    try:
        if sys.argv[1:] == ["--analyze"]:
            if statistics_refresh(os.environ["DATABASE_URL"]):
                print("· autovacuum is off on this server: statistics refreshed (VACUUM ANALYZE)")
        else:
            print(f"· database {database_ensure(os.environ['DATABASE_URL'])}")
    except ValueError as exc:
        sys.exit(str(exc))
