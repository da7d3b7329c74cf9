"""Files the service keeps on disk: which folders a backup copies, copying and restoring them.

Today the service keeps no lasting files of its own outside the database: lab plots are
rendered from the run's stored result and kept in Django's cache (rendered again, byte for
byte, after a restore), the filesystem broker's folder holds only messages in transit (the
database is the source of truth and the sweeps queue the work again), static files are
rebuilt by collectstatic and course content lives in git. What is covered is Django's
MEDIA_ROOT, the folder of the default file storage, as soon as it is set (e.g. when uploads
are added): a backup copies every regular file under it and a restore puts them back.
"""

from __future__ import annotations

import shutil
from pathlib import Path, PurePosixPath

from django.conf import settings

from backups.errors import BackupError
from backups.manifest import FILES_DIR, StoredFile, file_sha256


def file_roots() -> dict[str, Path]:
    """The folders of files a backup copies, by name: "media" (MEDIA_ROOT) when it is set."""
    media = str(getattr(settings, "MEDIA_ROOT", "") or "")
    return {"media": Path(media).resolve()} if media else {}


def _files_under(root: Path) -> list[Path]:
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def files_backup(*, roots: dict[str, Path], folder: Path) -> dict[str, list[StoredFile]]:
    """Copy every regular file under each root into `folder`/files/<name>/ (symbolic links
    are not followed); returns what was copied, with the SHA-256 of each copy."""
    stored: dict[str, list[StoredFile]] = {}
    for name, root in roots.items():
        items = []
        for source in _files_under(root):
            relative = source.relative_to(root)
            copy = folder / FILES_DIR / name / relative
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy)
            items.append(StoredFile(path=relative.as_posix(), bytes=copy.stat().st_size,
                                    sha256=file_sha256(copy)))
        stored[name] = items
    return stored


def _safe_relative(path: str) -> Path:
    pure = PurePosixPath(path)
    if pure.is_absolute() or ".." in pure.parts or not pure.parts:
        raise BackupError(f"The manifest names a file outside its folder: {path!r}.")
    return Path(*pure.parts)


def files_restore_check(*, stored: dict[str, list[StoredFile]], roots: dict[str, Path],
                        folder: Path, replace: bool) -> None:
    """Refuse (BackupError, before anything is changed) a file restore that cannot or should
    not happen: a root the backup holds files of is not configured here, a copy in the
    backup is missing or damaged, or a root already holds files and `replace` is off."""
    for name, items in stored.items():
        if not items:
            continue
        if name not in roots:
            raise BackupError(f"The backup holds {len(items)} file(s) of '{name}' but no such "
                              f"folder is configured here (set MEDIA_ROOT).")
        for item in items:
            copy = folder / FILES_DIR / name / _safe_relative(item.path)
            if not copy.is_file() or file_sha256(copy) != item.sha256:
                raise BackupError(f"{copy} is missing or damaged (its SHA-256 differs from "
                                  "the manifest's); this backup cannot be restored as is.")
        existing = _files_under(roots[name])
        if existing and not replace:
            raise BackupError(
                f"{roots[name]} ('{name}') already holds {len(existing)} file(s); restore "
                "refuses to mix them with the backup's. Empty it, or pass --replace to "
                "overwrite the files the backup holds."
            )


def files_restore(*, stored: dict[str, list[StoredFile]], roots: dict[str, Path],
                  folder: Path) -> int:
    """Copy the backup's files back under their roots (after `files_restore_check`); returns
    how many were restored, each checked against its SHA-256 once in place."""
    count = 0
    for name, items in stored.items():
        for item in items:
            relative = _safe_relative(item.path)
            target = roots[name] / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(folder / FILES_DIR / name / relative, target)
            if file_sha256(target) != item.sha256:
                raise BackupError(f"{target} differs from the backup's copy after restoring it.")
            count += 1
    return count
