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
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
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
    PgTool,
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
    # Operators only (folder 0700, files 0600): a backup holds every student's answers and
    # personal data. The folder is private from its creation, so no file in it is ever
    # readable by others, whatever the umask (pg_dump writes with it); files get 0600 too.
    partial.mkdir(mode=0o700)
    partial.chmod(0o700)
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
        _make_private(partial)
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


def _make_private(folder: Path) -> None:
    """Folders 0700 and files 0600 under `folder` (itself included)."""
    folder.chmod(0o700)
    for path in folder.rglob("*"):
        path.chmod(0o700 if path.is_dir() else 0o600)


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
            found = _sqlite_restore(connection, database_file, replace=replace,
                                    manifest_tables=manifest.tables)
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


def _postgres_rehearse(connection: BaseDatabaseWrapper, database_file: Path, manifest: Manifest,
                       tool: PgTool) -> None:
    """Restore `database_file` into a new scratch database on the same server, compare it
    with the manifest, drop it; BackupError when it fails or differs."""
    scratch = f"{connection.settings_dict['NAME']}"[:40] + f"_restore_check_{secrets.token_hex(4)}"
    quote = connection.ops.quote_name
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE DATABASE {quote(scratch)} TEMPLATE template0")
    except DatabaseError as exc:
        raise BackupError(
            "restore --replace first restores into a scratch database, and the database user "
            f"may not create one ({exc}). Restore into a new, empty database instead "
            "(docs/operations.md, 'Backups and restore').") from exc
    params = {**connection.settings_dict, "NAME": scratch}
    check = type(connection)(params, alias=f"restore-check-{scratch}")
    try:
        pg_restore_database(connection=check, dump=database_file, tool=tool)
        with check.cursor() as cursor:
            found = postgres_inventory(cursor, check.introspection.table_names(cursor))
        _refuse_unverified(manifest.tables, found,
                           target=database_description(connection))
    except BackupError as exc:
        raise BackupError(f"{exc} (in a scratch database: "
                          f"{database_description(connection)} was left as it was)") from exc
    finally:
        check.close()
        with connection.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {quote(scratch)}")


def _refuse_not_empty(connection: BaseDatabaseWrapper, holds: str) -> BackupError:
    return BackupError(
        f"Refusing to restore: {database_description(connection)} is not empty (it holds "
        f"{holds}). Restore into a new, empty database (README, 'Backups and restore'), or "
        "pass --replace to drop everything it holds and restore over it."
    )


def _sqlite_restore(connection: BaseDatabaseWrapper, database_file: Path, *,
                    replace: bool, manifest_tables: dict[str, TableState]) -> dict[str, TableState]:
    target = sqlite_path(connection.settings_dict["NAME"])
    sqlite_check_integrity(database_file)
    tables = sqlite_table_count(target)
    if tables and not replace:
        raise _refuse_not_empty(connection, f"{tables} tables")
    connection.close()
    if not tables:
        sqlite_restore(backup=database_file, target=target)
        return sqlite_inventory(target)
    # --replace: restore into a scratch file beside the target and verify it against the
    # manifest first; the target is overwritten only by a restore known to be whole.
    scratch = target.with_name(f".{target.name}.restoring-{secrets.token_hex(4)}")
    try:
        sqlite_restore(backup=database_file, target=scratch)
        _refuse_unverified(manifest_tables, sqlite_inventory(scratch), target=str(target))
        sqlite_restore(backup=scratch, target=target)
    finally:
        scratch.unlink(missing_ok=True)
    return sqlite_inventory(target)


def _refuse_unverified(expected: dict[str, TableState], found: dict[str, TableState], *,
                       target: str) -> None:
    """BackupError when a rehearsal restore does not match the manifest (target untouched)."""
    differ = [check for check in tables_compare(expected, found) if not check.matches]
    if differ:
        raise BackupError(
            f"The backup did not restore whole in a scratch copy: it differs from the backup in "
            f"{len(differ)} table(s) ({'; '.join(check.describe() for check in differ[:5])}); "
            f"{target} was left as it was.")


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
        # Rehearse first: the same archive restored into a scratch database and verified, so
        # a backup that cannot restore (a truncated archive whose checksum was taken after
        # the damage) fails there and the target keeps everything it holds.
        _postgres_rehearse(connection, database_file, manifest, tool)
        logger.warning("restore --replace: dropping %d relations of %s", len(relations),
                       database_description(connection))
        pg_drop_everything(connection)
    pg_restore_database(connection=connection, dump=database_file, tool=tool)
    with transaction.atomic(using=connection.alias, durable=True), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        return postgres_inventory(cursor, connection.introspection.table_names(cursor))
