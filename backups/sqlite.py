"""SQLite: copy a live database with the online backup API, check a copy, restore one.

The backup API copies the database as one consistent snapshot while the web server and
workers keep it open: the copy is made in one step under a read lock, so writers wait for
it (a few hundred megabytes a second) instead of the copy restarting on every write.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from backups.errors import BackupError
from backups.inventory import sqlite_open_read_only, sqlite_tables

LOCK_TIMEOUT = 20.0  # seconds to wait for a writer's lock, as the service itself does


def sqlite_path(name: object) -> Path:
    """The database file named by a SQLite DATABASES NAME; refuses an in-memory database."""
    text = str(name)
    if not text or text == ":memory:" or text.startswith("file::memory:") or "mode=memory" in text:
        raise BackupError("The configured SQLite database is in memory; there is nothing on "
                          "disk to back up or restore.")
    return Path(text).resolve()


def sqlite_backup(*, source: Path, target: Path) -> None:
    """Copy the live database `source` into the new file `target` (online backup API), then
    check the copy's integrity. Raises BackupError when the source is missing or the copy is
    damaged."""
    if not source.is_file():
        raise BackupError(f"{source}: the configured SQLite database does not exist.")
    with closing(sqlite_open_read_only(source, timeout=LOCK_TIMEOUT)) as live, \
            closing(sqlite3.connect(target)) as copy:
        live.backup(copy)  # pages=-1: the whole database in one step, one snapshot
    sqlite_check_integrity(target)


def sqlite_check_integrity(path: Path) -> None:
    """Raise BackupError unless `PRAGMA integrity_check` finds the file at `path` sound."""
    try:
        with closing(sqlite_open_read_only(path)) as db:
            problems = [row[0] for row in db.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a readable SQLite database: {exc}") from exc
    if problems != ["ok"]:
        raise BackupError(f"{path} failed SQLite's integrity check: {'; '.join(problems[:5])}")


def sqlite_table_count(path: Path) -> int:
    """How many tables the SQLite file at `path` holds (0 when it does not exist)."""
    if not path.exists() or path.stat().st_size == 0:
        return 0
    try:
        with closing(sqlite_open_read_only(path, timeout=LOCK_TIMEOUT)) as db:
            return len(sqlite_tables(db))
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a SQLite database ({exc}); refusing to write over "
                          "it.") from exc


def sqlite_restore(*, backup: Path, target: Path) -> None:
    """Replace the content of the database file `target` (created if missing) by the backup
    file `backup`, with the online backup API: processes that hold `target` open see the
    old database or the restored one, never a mixture."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite_open_read_only(backup)) as source, \
            closing(sqlite3.connect(target, timeout=LOCK_TIMEOUT)) as live:
        source.backup(live)
