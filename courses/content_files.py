"""Reading the module's content files (TOML and Markdown with TOML front matter) with locations.

Only syntax and file structure are handled here; what the values mean is checked in
`content_validation`. Every problem is a `ContentError` naming the file and line.
"""

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FRONT_MATTER_FENCE = "+++"
_TOML_LINE = re.compile(r"at line (\d+)")


@dataclass(frozen=True)
class ContentError:
    """A problem in a content file, reported as `file:line: reason`."""

    path: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.reason}"


@dataclass
class SourceFile:
    """One parsed content file: its data, its text (to locate keys) and the body if Markdown."""

    path: Path
    display_path: str
    data: dict[str, Any]
    text: str
    body: str = ""
    line_offset: int = 0
    kind: str = ""

    def line_of(self, *keys: str | int) -> int:
        """Best line for a key path such as ("parts", 2, "reference"); 1 if not found."""
        lines = self.text.splitlines()
        start = 0
        table = ""
        for key in keys:
            if isinstance(key, int):
                header = re.compile(rf"^\s*\[\[\s*{re.escape(table)}\s*\]\]")
                hits = [i for i in range(start, len(lines)) if header.match(lines[i])]
                if key < len(hits):
                    start = hits[key]
                continue
            table = f"{table}.{key}" if table else key
            pattern = re.compile(rf"^\s*(\[\[?\s*)?([\w.\"-]*\.)?\"?{re.escape(key)}\"?\s*(=|\]|\.)")
            for i in range(start, len(lines)):
                if pattern.match(lines[i]):
                    start = i
                    break
        return start + 1 + self.line_offset


@dataclass
class ContentFiles:
    """Everything read from one module folder, plus the problems found while reading."""

    root: Path
    module: SourceFile | None = None
    sections: list[SourceFile] = field(default_factory=list)
    figures: list[SourceFile] = field(default_factory=list)
    labs: list[SourceFile] = field(default_factory=list)
    exercises: list[SourceFile] = field(default_factory=list)
    errors: list[ContentError] = field(default_factory=list)


def _display(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root.parent))
    except ValueError:
        return str(path)


def _toml_error(display: str, exc: tomllib.TOMLDecodeError, offset: int = 0) -> ContentError:
    match = _TOML_LINE.search(str(exc))
    line = int(match.group(1)) if match else 1
    return ContentError(display, line + offset, f"invalid TOML: {exc}")


def read_toml(path: Path, root: Path, kind: str) -> SourceFile | ContentError:
    """Parse a TOML content file, or return the syntax error with its line."""
    display = _display(path, root)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return ContentError(display, 1, f"cannot read file: {exc}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return _toml_error(display, exc)
    return SourceFile(path=path, display_path=display, data=data, text=text, kind=kind)


def read_markdown(path: Path, root: Path, kind: str) -> SourceFile | ContentError:
    """Parse a Markdown file whose TOML front matter sits between two `+++` lines."""
    display = _display(path, root)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return ContentError(display, 1, f"cannot read file: {exc}")
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != FRONT_MATTER_FENCE:
        return ContentError(display, 1, "expected front matter: the first line must be +++")
    closing = next(
        (i for i in range(1, len(lines)) if lines[i].strip() == FRONT_MATTER_FENCE), None
    )
    if closing is None:
        return ContentError(display, 1, "front matter opened with +++ is never closed")
    front = "".join(lines[1:closing])
    try:
        data = tomllib.loads(front)
    except tomllib.TOMLDecodeError as exc:
        return _toml_error(display, exc, offset=1)
    body = "".join(lines[closing + 1 :]).strip("\n")
    return SourceFile(
        path=path, display_path=display, data=data, text=front, body=body, line_offset=1, kind=kind
    )


def read_module_folder(root: Path) -> ContentFiles:
    """Read module.toml and every section, figure, lab and exercise file under `root`."""
    files = ContentFiles(root=root)
    if not root.is_dir():
        files.errors.append(ContentError(str(root), 1, "content folder does not exist"))
        return files
    module_path = root / "module.toml"
    if not module_path.exists():
        files.errors.append(ContentError(_display(module_path, root), 1, "module.toml is missing"))
    else:
        _collect(files, read_toml(module_path, root, "module"), None)
    for sub, kind, reader, pattern in (
        ("sections", "section", read_markdown, "*.md"),
        ("figures", "figure", read_toml, "*.toml"),
        ("labs", "lab", read_toml, "*.toml"),
        ("exercises", "exercise", read_toml, "*.toml"),
    ):
        bucket: list[SourceFile] = getattr(files, sub)
        for path in sorted((root / sub).glob(pattern)):
            _collect(files, reader(path, root, kind), bucket)
    return files


def _collect(
    files: ContentFiles, result: SourceFile | ContentError, bucket: list[SourceFile] | None
) -> None:
    if isinstance(result, ContentError):
        files.errors.append(result)
    elif bucket is None:
        files.module = result
    else:
        bucket.append(result)
