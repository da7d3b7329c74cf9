"""Backing up the configured database (and files) into a folder; restoring one and verifying it."""

from __future__ import annotations

import logging
import re
import secrets
import shutil
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import django
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from backups.errors import BackupError
from backups.files import file_roots, files_backup, files_restore, files_restore_check
from backups.inventory import postgres_inventory, sqlite_inventory, sqlite_migrations
from backups.manifest import (
    POSTGRES_FILE,
    SQLITE_FILE,
    Manifest,
    TableState,
    file_sha256,
    manifest_read,
    manifest_write,
)
from backups.postgres import (
    pg_archive_check,
    pg_drop_everything,
    pg_dump_database,
    pg_relations,
    pg_restore_database,
    pg_version_major,
    restore_tools_check,
    server_major,
)
from backups.sqlite import (
    sqlite_backup,
    sqlite_check_integrity,
    sqlite_path,
    sqlite_restore,
    sqlite_table_count,
)
from backups.verification import TableCheck, migrations_compare, tables_compare

logger = logging.getLogger(__name__)

ENGINES = {"sqlite": SQLITE_FILE, "postgresql": POSTGRES_FILE}


@dataclass
class RestoreReport:
    """What a restore did: the manifest it restored, each table checked against it, the
    files put back, and how the restored migrations compare with this code's."""

    manifest: Manifest
    tables: list[TableCheck]
    files_restored: int = 0
    migrations_missing: list[str] = field(default_factory=list)
    migrations_unknown: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every table of the backup came back with the same row count and content digest,
        and no other table is there."""
        return all(check.matches for check in self.tables)

    @property
    def mismatches(self) -> list[TableCheck]:
        return [check for check in self.tables if not check.matches]


def database_description(connection: BaseDatabaseWrapper) -> str:
    """Which database `connection` is, for the operator (never with its password)."""
    params = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"the SQLite file {params['NAME']}"
    where = f"{params.get('HOST') or 'localhost'}:{params.get('PORT') or 5432}"
    return f"the {connection.display_name} database '{params['NAME']}' on {where}"


def _engine(connection: BaseDatabaseWrapper) -> str:
    if connection.vendor not in ENGINES:
        raise BackupError(f"Backups of {connection.display_name} databases are not supported "
                          "(SQLite and PostgreSQL are).")
    return connection.vendor


def backup_create(*, output: Path, using: str = DEFAULT_DB_ALIAS) -> Manifest:
    """Back up the database `using` and the service's files into the new folder `output`.

    The database is copied as one consistent snapshot while the service keeps running
    (SQLite: online backup API; PostgreSQL: pg_dump of an exported snapshot), and the
    manifest's row counts, digests and migrations are read from that same snapshot. The
    folder appears only once complete (it is written under a temporary name, manifest
    last; missing parent folders are created). Raises BackupError when `output` exists or
    the copy or a write fails; nothing but those parent folders is left behind then.
    """
    output = output.resolve()
    if output.exists():
        raise BackupError(f"{output} exists already; each backup goes to a new folder.")
    connection = connections[using]
    engine = _engine(connection)
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(f"Cannot create {output.parent} to write the backup into: {exc}") from exc
    partial = output.parent / f".{output.name}.partial-{secrets.token_hex(4)}"
    partial.mkdir()
    try:
        database_file = partial / ENGINES[engine]
        if engine == "sqlite":
            sqlite_backup(source=sqlite_path(connection.settings_dict["NAME"]),
                          target=database_file)
            tables, migrations = sqlite_inventory(database_file), sqlite_migrations(database_file)
            server, tool = sqlite3.sqlite_version, "sqlite3 online backup API"
        else:
            facts = pg_dump_database(connection=connection, target=database_file)
            tables, migrations = facts.tables, facts.migrations
            server, tool = facts.server_version, facts.dump_tool_version
        manifest = Manifest(
            engine=engine, created_at=timezone.now().isoformat(), django_version=django.__version__,
            database_file=database_file.name, database_sha256=file_sha256(database_file),
            database_bytes=database_file.stat().st_size, tables=tables, migrations=migrations,
            files=files_backup(roots=file_roots(), folder=partial),
            server_version=server, dump_tool_version=tool,
        )
        manifest_write(partial, manifest)
        partial.rename(output)
    except (OSError, sqlite3.Error) as exc:  # a full disk, a folder we may not write, a lock
        shutil.rmtree(partial, ignore_errors=True)
        raise BackupError(f"Writing the backup into {output} failed: {exc}") from exc
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    logger.info("backup of %s written to %s: %d tables, %d rows", database_description(connection),
                output, len(manifest.tables), manifest.total_rows)
    return manifest


def backup_restore(*, source: Path, replace: bool = False,
                   using: str = DEFAULT_DB_ALIAS) -> RestoreReport:
    """Restore the backup folder `source` into the database `using` (and its files into
    their folders), then verify every table against the manifest.

    Everything that can be checked first is: the manifest, the engine, the database file's
    SHA-256, the client tools' versions and the files. A database (or file folder) that
    already holds anything is refused unless `replace`, which first drops all it holds
    (PostgreSQL) or overwrites it whole (SQLite). Raises BackupError on a refusal or a
    failed restore; a verification that finds differences is reported, not raised (see
    RestoreReport.ok).
    """
    source = source.resolve()
    manifest = manifest_read(source)
    connection = connections[using]
    engine = _engine(connection)
    if manifest.engine != engine:
        raise BackupError(
            f"{source} is a backup of a {manifest.engine} database but the configured "
            f"database is {engine}; a backup restores into the same engine only."
        )
    if manifest.database_file != ENGINES[engine]:
        raise BackupError(f"{source}: unexpected database file {manifest.database_file!r}.")
    database_file = source / manifest.database_file
    if not database_file.is_file() or file_sha256(database_file) != manifest.database_sha256:
        raise BackupError(f"{database_file} is missing or damaged (its SHA-256 differs from the "
                          "manifest's); this backup cannot be restored.")
    roots = file_roots()
    files_restore_check(stored=manifest.files, roots=roots, folder=source, replace=replace)
    try:
        if engine == "sqlite":
            found = _sqlite_restore(connection, database_file, replace=replace)
        else:
            found = _postgres_restore(connection, database_file, manifest, replace=replace)
        restored = files_restore(stored=manifest.files, roots=roots, folder=source)
    except (OSError, sqlite3.Error) as exc:  # a full disk, a folder we may not write, a lock
        raise BackupError(f"Restoring {source} failed: {exc}") from exc
    missing, unknown = migrations_compare(manifest.migrations)
    report = RestoreReport(manifest=manifest, tables=tables_compare(manifest.tables, found),
                           files_restored=restored, migrations_missing=missing,
                           migrations_unknown=unknown)
    logger.info("backup %s restored into %s: %d tables, %d differ", source,
                database_description(connection), len(report.tables), len(report.mismatches))
    return report


def _refuse_not_empty(connection: BaseDatabaseWrapper, holds: str) -> BackupError:
    return BackupError(
        f"Refusing to restore: {database_description(connection)} is not empty (it holds "
        f"{holds}). Restore into a new, empty database (README, 'Backups and restore'), or "
        "pass --replace to drop everything it holds and restore over it."
    )


def _sqlite_restore(connection: BaseDatabaseWrapper, database_file: Path, *,
                    replace: bool) -> dict[str, TableState]:
    target = sqlite_path(connection.settings_dict["NAME"])
    sqlite_check_integrity(database_file)
    tables = sqlite_table_count(target)
    if tables and not replace:
        raise _refuse_not_empty(connection, f"{tables} tables")
    connection.close()
    sqlite_restore(backup=database_file, target=target)
    return sqlite_inventory(target)


def _postgres_restore(connection: BaseDatabaseWrapper, database_file: Path, manifest: Manifest,
                      *, replace: bool) -> dict[str, TableState]:
    tool = pg_archive_check(dump=database_file)
    source_major = re.match(r"\d+", manifest.server_version)
    restore_tools_check(tool=tool, dump_major=pg_version_major(manifest.dump_tool_version),
                        source_major=int(source_major.group()) if source_major else 0,
                        target_major=server_major(connection))
    relations = pg_relations(connection)
    if relations and not replace:
        tables = sum(1 for _, _, kind in relations if kind in "rp")
        raise _refuse_not_empty(connection, f"{tables} tables; {len(relations)} relations with "
                                "its views and sequences")
    if relations:
        logger.warning("restore --replace: dropping %d relations of %s", len(relations),
                       database_description(connection))
        pg_drop_everything(connection)
    pg_restore_database(connection=connection, dump=database_file, tool=tool)
    with transaction.atomic(using=connection.alias, durable=True), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        return postgres_inventory(cursor, connection.introspection.table_names(cursor))
