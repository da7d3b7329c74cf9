"""PostgreSQL: pg_dump (custom format) from one snapshot shared with the manifest, pg_restore.

Connection parameters come from settings.DATABASES; the password reaches pg_dump and
pg_restore through the PGPASSWORD environment variable only, never their command line, and
is masked in any error text. The client tools are found on PATH, or in BACKUP_PG_BIN_DIR
(e.g. /usr/lib/postgresql/16/bin) when several versions are installed; their versions are
checked against the server's before anything runs.
"""

from __future__ import annotations

import logging
import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from backups.errors import BackupError
from backups.inventory import postgres_inventory, postgres_migrations
from backups.manifest import TableState

logger = logging.getLogger(__name__)

#: libpq environment variables for connection OPTIONS that pg_dump and pg_restore understand.
LIBPQ_OPTION_VARIABLES = {
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "passfile": "PGPASSFILE",
    "service": "PGSERVICE",
    "options": "PGOPTIONS",
    "connect_timeout": "PGCONNECT_TIMEOUT",
    "target_session_attrs": "PGTARGETSESSIONATTRS",
    "application_name": "PGAPPNAME",
}
_VERSION = re.compile(r"\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?")

# The database's own relations (not PostgreSQL's, nor those an extension owns).
_OWN_RELATIONS = """
    SELECT n.nspname, c.relname, c.relkind FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
      AND n.nspname NOT IN ('pg_catalog', 'information_schema')
      AND n.nspname NOT LIKE 'pg\\_toast%%' AND n.nspname NOT LIKE 'pg\\_temp%%'
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
                      AND d.objid = c.oid AND d.deptype = 'e')
"""
_DROP = {"v": "VIEW", "m": "MATERIALIZED VIEW", "r": "TABLE", "p": "TABLE",
         "f": "FOREIGN TABLE", "S": "SEQUENCE"}


@dataclass(frozen=True)
class PgTool:
    """A PostgreSQL client program found on this machine and the major version it reports."""

    name: str
    path: str
    version: str
    major: int


@dataclass(frozen=True)
class PgDumpFacts:
    """What a pg_dump saw: the snapshot's tables and migrations, the versions involved."""

    tables: dict[str, TableState]
    migrations: dict[str, list[str]]
    server_version: str
    dump_tool_version: str


def pg_version_major(version_text: str) -> int:
    """The major version in `pg_dump --version` style text ("pg_dump (PostgreSQL) 15.2")."""
    match = _VERSION.search(version_text)
    if match is None:
        raise BackupError(f"Cannot read a PostgreSQL version from {version_text.strip()!r}.")
    return int(match.group(1))


def pg_tool(name: str) -> PgTool:
    """Find the client program `name` (pg_dump, pg_restore) and ask its version.

    Raises BackupError saying how to install it when it is missing or does not run.
    """
    folder = str(getattr(settings, "BACKUP_PG_BIN_DIR", "") or "")
    found = shutil.which(name, path=folder) if folder else shutil.which(name)
    if found is None:
        where = f"in BACKUP_PG_BIN_DIR={folder}" if folder else "on PATH"
        raise BackupError(
            f"{name} was not found {where}. Install the PostgreSQL client of the server's "
            f"major version (Debian/Ubuntu: apt-get install postgresql-client-<major>) or set "
            f"BACKUP_PG_BIN_DIR to the folder holding {name} (e.g. /usr/lib/postgresql/16/bin)."
        )
    try:
        completed = subprocess.run([found, "--version"], capture_output=True, text=True,  # noqa: S603
                                   timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BackupError(f"{found} --version could not run: {exc}") from exc
    if completed.returncode != 0:
        raise BackupError(f"{found} --version failed (exit {completed.returncode}): "
                          f"{completed.stderr.strip()}")
    text = completed.stdout.strip()
    return PgTool(name=name, path=found, version=text, major=pg_version_major(text))


def dump_tool_check(*, tool: PgTool, server_major: int) -> None:
    """Refuse a pg_dump older than the server it would dump (pg_dump itself would abort)."""
    if tool.major < server_major:
        raise BackupError(
            f"{tool.path} is version {tool.major} but the server runs PostgreSQL {server_major}; "
            f"pg_dump must be at least the server's version. Install postgresql-client-"
            f"{server_major} and set BACKUP_PG_BIN_DIR to its bin folder."
        )


def restore_tools_check(*, tool: PgTool, dump_major: int, source_major: int,
                        target_major: int) -> None:
    """Refuse a restore that cannot work: a pg_restore older than the pg_dump that wrote the
    archive cannot read it, and a dump of a newer server may not load into an older one."""
    if tool.major < dump_major:
        raise BackupError(
            f"{tool.path} is version {tool.major} but the backup was written by pg_dump "
            f"{dump_major}; pg_restore must be at least that version. Install "
            f"postgresql-client-{dump_major} and set BACKUP_PG_BIN_DIR to its bin folder."
        )
    if target_major < source_major:
        raise BackupError(
            f"The backup is of a PostgreSQL {source_major} server and the target runs "
            f"PostgreSQL {target_major}; a dump restores into the same or a newer major "
            f"version only. Restore into PostgreSQL {source_major} or newer."
        )


def pg_connection(params: Mapping[str, Any],
                  environ: Mapping[str, str] | None = None) -> tuple[list[str], dict[str, str]]:
    """Command-line arguments and environment for pg_dump/pg_restore to reach the database
    of a DATABASES entry: host, port, user and database name as arguments, the password as
    PGPASSWORD and known OPTIONS (sslmode, ...) as libpq variables. The password is never
    in the arguments. `--no-password`: a missing password fails instead of prompting."""
    env = dict(os.environ if environ is None else environ)
    args = ["--no-password"]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if params.get(key):
            args.append(f"{flag}={params[key]}")
    if params.get("PASSWORD"):
        env["PGPASSWORD"] = str(params["PASSWORD"])
    for option, value in (params.get("OPTIONS") or {}).items():
        if option in LIBPQ_OPTION_VARIABLES and value is not None:
            env[LIBPQ_OPTION_VARIABLES[option]] = str(value)
    if params.get("NAME"):
        args.append(f"--dbname={params['NAME']}")
    return args, env


def _masked(text: str, password: object) -> str:
    return text.replace(str(password), "********") if password else text


def pg_run(tool: PgTool, args: list[str], *, params: Mapping[str, Any]) -> None:
    """Run `tool` with `args` and the connection of `params`; BackupError with its (masked)
    error output when it fails."""
    connection_args, env = pg_connection(params)
    command = [tool.path, *connection_args, *args]
    logger.info("running %s", shlex.join(command))  # no password in the command line
    try:
        completed = subprocess.run(command, capture_output=True, text=True, env=env,  # noqa: S603
                                   check=False)
    except OSError as exc:
        raise BackupError(f"{tool.path} could not run: {exc}") from exc
    if completed.returncode != 0:
        output = _masked((completed.stderr or completed.stdout).strip(), params.get("PASSWORD"))
        raise BackupError(f"{tool.name} failed (exit {completed.returncode}): {output}")


def server_major(connection: BaseDatabaseWrapper) -> int:
    """The major version of the PostgreSQL server behind `connection`."""
    return int(connection.pg_version) // 10000  # type: ignore[attr-defined]


def server_version(connection: BaseDatabaseWrapper) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        return str(cursor.fetchone()[0])


def pg_dump_database(*, connection: BaseDatabaseWrapper, target: Path) -> PgDumpFacts:
    """Dump the database of `connection` into the new file `target` (custom format) and
    read each table's count and digest and the applied migrations from the same snapshot.

    A REPEATABLE READ transaction exports its snapshot and pg_dump dumps that snapshot
    (`--snapshot`), so the manifest describes exactly what the dump holds even while the
    service writes. Raises BackupError for a missing or too old pg_dump, or its failure.
    """
    tool = pg_tool("pg_dump")
    major = server_major(connection)
    dump_tool_check(tool=tool, server_major=major)
    version = server_version(connection)
    with transaction.atomic(using=connection.alias, durable=True), \
            connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        cursor.execute("SELECT pg_export_snapshot()")
        snapshot = cursor.fetchone()[0]
        pg_run(tool, ["--format=custom", f"--snapshot={snapshot}", f"--file={target}"],
             params=connection.settings_dict)
        tables = connection.introspection.table_names(cursor)
        facts = PgDumpFacts(tables=postgres_inventory(cursor, tables),
                            migrations=postgres_migrations(cursor, tables),
                            server_version=version, dump_tool_version=tool.version)
    return facts


def pg_archive_check(*, dump: Path) -> PgTool:
    """Check that this machine's pg_restore reads the archive `dump` (its table of contents);
    returns the pg_restore found. Raises BackupError otherwise."""
    tool = pg_tool("pg_restore")
    try:
        completed = subprocess.run([tool.path, "--list", str(dump)],  # noqa: S603
                                   capture_output=True, text=True, check=False)
    except OSError as exc:
        raise BackupError(f"{tool.path} could not run: {exc}") from exc
    if completed.returncode != 0:
        raise BackupError(f"{dump} is not an archive {tool.version} can read: "
                          f"{completed.stderr.strip()}")
    return tool


def pg_relations(connection: BaseDatabaseWrapper) -> list[tuple[str, str, str]]:
    """The database's own relations (schema, name, kind), not PostgreSQL's or extensions'."""
    with connection.cursor() as cursor:
        cursor.execute(_OWN_RELATIONS)
        return [(str(schema), str(name), str(kind)) for schema, name, kind in cursor.fetchall()]


def pg_drop_everything(connection: BaseDatabaseWrapper) -> int:
    """Drop every table, view and sequence of the database (one transaction); returns how
    many relations there were. Used by a restore with --replace only."""
    relations = pg_relations(connection)
    quote = connection.ops.quote_name
    order = "vmrpfS"  # views before the tables they read, sequences last
    with transaction.atomic(using=connection.alias, durable=True), connection.cursor() as cursor:
        for schema, name, kind in sorted(relations, key=lambda r: order.index(r[2])):
            cursor.execute(f"DROP {_DROP[kind]} IF EXISTS {quote(schema)}.{quote(name)} CASCADE")
    return len(relations)


def pg_restore_database(*, connection: BaseDatabaseWrapper, dump: Path, tool: PgTool) -> None:
    """Load the archive `dump` into the (empty) database of `connection` with pg_restore, in
    one transaction that stops at the first error (so a failed restore leaves it empty),
    without the source's owners and privileges (the target's user owns everything)."""
    connection.close()  # pg_restore works on its own connection; ours holds nothing open
    pg_run(tool, ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error",
                str(dump)], params=connection.settings_dict)
