"""Bringing a course's content folder onto the server: a git repository or an uploaded archive.

Everything an instructor gives (a URL, a branch, an archive) is untrusted. This module only
produces a checked folder on disk; validating and applying its content is `courses.services`.

- `url_check` allows only the schemes and hosts the operator lists and refuses hosts that
  resolve to the server's own networks (private, loopback, link-local) unless allowed.
- `git_fetch` clones one branch, depth 1, with dulwich in a child process that is killed
  after `timeout` seconds and cannot write a file larger than the size limit; the child
  checks every address it connects to again (`courses.network_addresses`), so a host that
  re-resolves to a private address after `url_check` (DNS rebinding) is refused too.
- `archive_extract` unpacks a .zip or .tar.gz with limits on size, file count and
  compression ratio, refusing paths outside the folder, links and device files.
- `tree_check` refuses symlinks and enforces the size and file-count limits on a folder.
"""

import hashlib
import os
import re
import socket
import stat
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO
from urllib.parse import urlsplit

from django.conf import settings

from courses.network_addresses import address_refused

_BRANCH = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$")


class RepositoryRefused(Exception):
    """The repository, archive or fetched folder is refused; the message says why."""


@dataclass(frozen=True)
class Limits:
    """Bounds on one fetch or archive (defaults from the CONTENT_REPOSITORY_* settings)."""

    max_bytes: int
    max_files: int
    timeout: float
    archive_max_bytes: int
    max_ratio: int

    @classmethod
    def from_settings(cls) -> "Limits":
        return cls(
            max_bytes=settings.CONTENT_REPOSITORY_MAX_BYTES,
            max_files=settings.CONTENT_REPOSITORY_MAX_FILES,
            timeout=settings.CONTENT_REPOSITORY_TIMEOUT_SECONDS,
            archive_max_bytes=settings.CONTENT_ARCHIVE_MAX_BYTES,
            max_ratio=settings.CONTENT_ARCHIVE_MAX_RATIO,
        )


def url_check(url: str) -> None:
    """Raise RepositoryRefused unless the operator's settings allow fetching `url`.

    The scheme must be in CONTENT_REPOSITORY_ALLOWED_SCHEMES; a `file://` URL or an absolute
    local path (a repository on the server's own disk) only when "file" is listed, as on
    bin/run's local settings. Other URLs need a host in CONTENT_REPOSITORY_ALLOWED_HOSTS
    ("*" allows any) that resolves only to public addresses, unless
    CONTENT_REPOSITORY_ALLOW_PRIVATE is on. Credentials in the URL are refused (they would be
    stored and shown on the page).
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    allowed_schemes = [s.lower() for s in settings.CONTENT_REPOSITORY_ALLOWED_SCHEMES]
    if not scheme or len(scheme) == 1:  # "/srv/x", "../x", "C:\\x": a local path
        if "file" not in allowed_schemes:
            raise RepositoryRefused("a local path is not a repository URL here; give an "
                                    "https:// URL")
        if not url.strip().startswith("/"):
            raise RepositoryRefused("give the local repository's absolute path (starting "
                                    "with /) or its file:// URL")
        return
    if scheme not in allowed_schemes:
        raise RepositoryRefused(
            f"the scheme '{scheme}' is not allowed here (allowed: {', '.join(allowed_schemes)})"
        )
    if scheme == "file":
        if parts.netloc not in ("", "localhost") or not parts.path.startswith("/"):
            raise RepositoryRefused("a file:// URL must name an absolute local path")
        return
    if parts.username or parts.password:
        raise RepositoryRefused("the URL must not carry a user name or password")
    host = (parts.hostname or "").lower()
    if not host:
        raise RepositoryRefused("the URL has no host")
    allowed_hosts = [h.lower() for h in settings.CONTENT_REPOSITORY_ALLOWED_HOSTS]
    if "*" not in allowed_hosts and host not in allowed_hosts:
        raise RepositoryRefused(f"the host '{host}' is not in the allowed list")
    if settings.CONTENT_REPOSITORY_ALLOW_PRIVATE:
        return
    try:
        infos = socket.getaddrinfo(host, parts.port or 443, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, ValueError) as exc:
        raise RepositoryRefused(f"the host '{host}' cannot be resolved") from exc
    for info in infos:
        address = str(info[4][0])
        if address_refused(address):
            raise RepositoryRefused(
                f"the host '{host}' resolves to {address}, an address of a private or local "
                "network"
            )


def url_normalised(url: str) -> str:
    """`url` as stored and fetched: stripped, and an absolute local path as its file:// URL."""
    text = url.strip()
    return f"file://{text}" if text.startswith("/") else text


def branch_check(branch: str) -> None:
    """Raise RepositoryRefused unless `branch` is a plain branch name (no option, no `..`)."""
    if not _BRANCH.match(branch) or ".." in branch or branch.endswith((".lock", "/")):
        raise RepositoryRefused(f"'{branch}' is not a valid branch name")


def tree_check(root: Path, limits: Limits) -> None:
    """Raise RepositoryRefused if the folder holds a link or special file, or is too big.

    The `.git` folder of a clone is not counted.
    """
    files = 0
    total = 0
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        if Path(dirpath) == root and ".git" in dirnames:
            dirnames.remove(".git")
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            mode = path.lstat().st_mode
            shown = path.relative_to(root)
            if stat.S_ISLNK(mode):
                raise RepositoryRefused(f"{shown}: links are not allowed in a content folder")
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                raise RepositoryRefused(f"{shown}: only plain files and folders are allowed")
            if stat.S_ISREG(mode):
                files += 1
                total += path.lstat().st_size
        if files > limits.max_files:
            raise RepositoryRefused(f"more than {limits.max_files} files")
        if total > limits.max_bytes:
            raise RepositoryRefused(f"more than {limits.max_bytes} bytes of files")


def git_fetch(*, url: str, branch: str, dest: Path, limits: Limits) -> str:
    """Clone `branch` of `url` (checked by url_check first) into `dest`; return the commit sha.

    The clone runs in a child process (`python -m courses.git_clone`) with no inherited
    environment secrets, killed after `limits.timeout` seconds, and the checked-out folder
    then passes `tree_check`. Raises RepositoryRefused with the reason on any failure.
    """
    url_check(url)
    branch_check(branch)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(dest.parent), "LANG": "C.UTF-8",
           "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    try:
        done = subprocess.run(  # noqa: S603 - fixed argv, no shell
            [sys.executable, "-m", "courses.git_clone", url, branch, str(dest),
             str(limits.max_bytes), "1" if settings.CONTENT_REPOSITORY_ALLOW_PRIVATE else "0"],
            capture_output=True, text=True, timeout=limits.timeout, env=env, check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise RepositoryRefused(f"fetching took longer than {limits.timeout:g} s") from exc
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["fetch failed"])[-1][:300]
        raise RepositoryRefused(f"cannot fetch branch '{branch}': {reason}")
    tree_check(dest, limits)
    return done.stdout.strip()


def _member_path(name: str) -> PurePosixPath:
    """The member's safe relative path, or RepositoryRefused for an absolute or `..` path."""
    clean = name.replace("\\", "/")
    path = PurePosixPath(clean)
    if clean.startswith("/") or re.match(r"^[A-Za-z]:", clean) or ".." in path.parts:
        raise RepositoryRefused(f"{name}: a path outside the course folder")
    return path


@dataclass(frozen=True)
class _Member:
    path: PurePosixPath
    size: int
    is_dir: bool


_Opener = Callable[[_Member], IO[bytes]]


def _zip_members(archive: zipfile.ZipFile) -> list[_Member]:
    members = []
    for info in archive.infolist():
        path = _member_path(info.filename)
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise RepositoryRefused(f"{info.filename}: links are not allowed in a content folder")
        members.append(_Member(path, info.file_size, info.is_dir()))
    return members


def _tar_members(archive: tarfile.TarFile) -> list[_Member]:
    members = []
    for info in archive.getmembers():
        path = _member_path(info.name)
        if info.issym() or info.islnk():
            raise RepositoryRefused(f"{info.name}: links are not allowed in a content folder")
        if not (info.isfile() or info.isdir()):
            raise RepositoryRefused(f"{info.name}: only plain files and folders are allowed")
        members.append(_Member(path, info.size, info.isdir()))
    return members


def _copy_bounded(source: IO[bytes], target: Path, budget: int) -> int:
    """Copy at most `budget` bytes; RepositoryRefused if the source holds more."""
    written = 0
    with target.open("wb") as out:
        while chunk := source.read(65536):
            written += len(chunk)
            if written > budget:
                raise RepositoryRefused("the archive unpacks to more than the size limit")
            out.write(chunk)
    return written


def archive_extract(*, upload: IO[bytes], dest: Path, limits: Limits) -> str:
    """Unpack a .zip or .tar.gz content folder into `dest`; return "sha256:<digest>".

    Refused (RepositoryRefused): archives over `archive_max_bytes`, more than `max_files`
    files, more than `max_bytes` unpacked or a ratio unpacked/packed above `max_ratio` (an
    archive bomb; counted on the bytes actually written, not only the declared sizes), absolute
    or `..` paths, links and device files. A single top-level folder wrapping everything (as
    in a download of a repository) is unwrapped.
    """
    digest = hashlib.sha256()
    raw = dest.parent / f"{dest.name}.upload"
    packed = 0
    with raw.open("wb") as out:
        while chunk := upload.read(65536):
            packed += len(chunk)
            if packed > limits.archive_max_bytes:
                raise RepositoryRefused(f"the archive is larger than {limits.archive_max_bytes} bytes")
            digest.update(chunk)
            out.write(chunk)
    budget = min(limits.max_bytes, max(packed, 1) * limits.max_ratio)
    dest.mkdir(parents=True, exist_ok=True)
    if zipfile.is_zipfile(raw):
        with zipfile.ZipFile(raw) as zf:
            members = _zip_members(zf)
            _check_members(members, limits, budget)
            strip = _wrapper(members)
            _extract(members, strip, dest, budget, lambda m: zf.open(str(m.path) + ("/" if m.is_dir else "")))
    else:
        try:
            tf = tarfile.open(raw, mode="r:*")  # noqa: SIM115 - closed below
        except tarfile.TarError as exc:
            raise RepositoryRefused("the upload is neither a .zip nor a .tar.gz archive") from exc
        with tf:
            names = {PurePosixPath(i.name.replace("\\", "/")): i for i in tf.getmembers()}
            members = _tar_members(tf)
            _check_members(members, limits, budget)
            strip = _wrapper(members)

            def open_tar(member: _Member) -> IO[bytes]:
                handle = tf.extractfile(names[member.path])
                if handle is None:
                    raise RepositoryRefused(f"{member.path}: cannot be read")
                return handle

            _extract(members, strip, dest, budget, open_tar)
    raw.unlink()
    tree_check(dest, limits)
    return f"sha256:{digest.hexdigest()}"


def _check_members(members: list[_Member], limits: Limits, budget: int) -> None:
    files = [m for m in members if not m.is_dir]
    if len(files) > limits.max_files:
        raise RepositoryRefused(f"the archive holds more than {limits.max_files} files")
    if sum(m.size for m in files) > budget:
        raise RepositoryRefused(
            "the archive unpacks to more than the size limit "
            f"({limits.max_bytes} bytes, or {limits.max_ratio} times its own size)"
        )


def _wrapper(members: list[_Member]) -> int:
    """1 when every member sits in one top-level folder (which is then dropped), else 0."""
    tops = {m.path.parts[0] for m in members if m.path.parts}
    nested = all(len(m.path.parts) > 1 or m.is_dir for m in members)
    return 1 if len(tops) == 1 and nested else 0


def _extract(members: list[_Member], strip: int, dest: Path, budget: int,
             opener: _Opener) -> None:
    left = budget
    for member in members:
        parts = member.path.parts[strip:]
        if not parts or parts == (".",):
            continue
        target = dest.joinpath(*parts)
        if member.is_dir:
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        with opener(member) as source:
            left -= _copy_bounded(source, target, left)
