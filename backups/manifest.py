"""The manifest written beside every backup: what it holds, so a restore can verify itself.

A backup is a folder:

    manifest.json        this manifest (written last: a folder without it is not a backup)
    database.sqlite3     the SQLite database (online backup API), or
    database.pgdump      the PostgreSQL database (pg_dump custom format)
    files/<root>/...     files the service keeps on disk (see backups.files)

The manifest names the engine, when it was made, the Django migrations applied, each table's
row count and content digest (taken from the same snapshot as the dump), the database file's
SHA-256 and the files copied with theirs.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from backups.errors import BackupError

FORMAT = 1
MANIFEST_NAME = "manifest.json"
SQLITE_FILE = "database.sqlite3"
POSTGRES_FILE = "database.pgdump"
FILES_DIR = "files"


@dataclass(frozen=True)
class TableState:
    """One table's row count and a digest of its content (independent of row order).

    Digests are comparable only between databases of the same engine.
    """

    rows: int
    digest: str


@dataclass(frozen=True)
class StoredFile:
    """A file copied into the backup: its path under its root, size and SHA-256."""

    path: str
    bytes: int
    sha256: str


@dataclass
class Manifest:
    """What a backup holds. `tables` maps table name to its state at the backup's snapshot;
    `migrations` maps app label to the names of its applied migrations; `files` maps a file
    root's name (e.g. "media") to the files copied from it."""

    engine: str
    created_at: str
    django_version: str
    database_file: str
    database_sha256: str
    database_bytes: int
    tables: dict[str, TableState]
    migrations: dict[str, list[str]]
    files: dict[str, list[StoredFile]] = field(default_factory=dict)
    server_version: str = ""
    dump_tool_version: str = ""
    format: int = FORMAT

    @property
    def total_rows(self) -> int:
        return sum(state.rows for state in self.tables.values())

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        data: dict[str, Any] = json.loads(text)
        data["tables"] = {name: TableState(**state) for name, state in data["tables"].items()}
        data["files"] = {root: [StoredFile(**item) for item in items]
                         for root, items in data.get("files", {}).items()}
        return cls(**data)


def manifest_write(folder: Path, manifest: Manifest) -> None:
    """Write `manifest` into the backup `folder` (the last step of a backup)."""
    (folder / MANIFEST_NAME).write_text(manifest.to_json(), encoding="utf-8")


def manifest_read(folder: Path) -> Manifest:
    """The manifest of the backup in `folder`.

    Raises BackupError when `folder` is not a backup (no manifest: perhaps an interrupted
    one), or its manifest is unreadable or of a newer format than this code reads.
    """
    path = folder / MANIFEST_NAME
    if not folder.is_dir():
        raise BackupError(f"{folder}: no such backup folder.")
    if not path.is_file():
        raise BackupError(f"{folder} has no {MANIFEST_NAME}: it is not a complete backup.")
    try:
        text = path.read_text(encoding="utf-8")
        version = json.loads(text).get("format", FORMAT)
        if isinstance(version, int) and version > FORMAT:
            raise BackupError(f"{path} is of backup format {version}; this code reads format "
                              f"{FORMAT} only. Restore with the newer code.")
        return Manifest.from_json(text)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise BackupError(f"{path} is not a readable backup manifest: {exc}") from exc


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
