"""Writing imported questions into a module folder: staged, validated, then moved.

The files are written into a staging copy beside the module folder and checked with the
content validation sync uses (fields, specs, keys, misconceptions and question tests in every
variant). A question whose file fails is left out and reported with the problems; what passes
is moved into the module folder, so nothing is ever half-written there.
"""

import dataclasses
import re
import shutil
import tempfile
import uuid
from pathlib import Path
from typing import Any

from courses.content_files import read_module_folder
from courses.content_validation import REGISTERED, Validators, validate_content
from courses.models import Module
from interchange.moodle_import import Pending, read_gift, read_moodle_xml
from interchange.report import ImportReport
from interchange.toml_writer import dumps

_SLUG = re.compile(r"[^a-z0-9]+")


def _slug(text: str, taken: set[str]) -> str:
    base = _SLUG.sub("-", text.lower()).strip("-")[:50].strip("-") or "question"
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


def _front_matter(data: dict[str, Any], body: str) -> str:
    return f"+++\n{dumps(data)}+++\n{body.strip()}\n"


class _Stage:
    """The staging copy of the module and the names already used in it."""

    def __init__(self, staging: Path, module_dir: Path, title: str) -> None:
        self.root = staging / "module"
        if module_dir.exists():
            shutil.copytree(module_dir, self.root, symlinks=True)
        else:
            self.root.mkdir(parents=True)
            (self.root / "module.toml").write_text(dumps({
                "uuid": str(uuid.uuid4()), "slug": _slug(module_dir.name, set()),
                "number": module_dir.name[:Module._meta.get_field("number").max_length],
                "title": title}), encoding="utf-8")
        files = read_module_folder(self.root)
        self.numbers = {str(s.data.get("number")) for s in files.sections}
        self.slugs = {str(s.data.get("slug")) for s in [*files.sections, *files.exercises]}
        self.section_order = max([int(s.data.get("order", 0) or 0) for s in files.sections],
                                 default=0)
        self.exercise_order = max([int(s.data.get("order", 0) or 0) for s in files.exercises],
                                  default=0)
        self.new_files: list[Path] = []

    def section(self, category: str, body: str) -> str:
        n = 1
        while f"Q{n}" in self.numbers:
            n += 1
        number = f"Q{n}"
        self.numbers.add(number)
        self.section_order += 1
        slug = _slug(category, self.slugs)
        path = self.root / "sections" / f"{self.section_order:02d}-{slug}.md"
        path.parent.mkdir(exist_ok=True)
        path.write_text(_front_matter({"uuid": str(uuid.uuid4()), "number": number, "slug": slug,
                                       "title": category, "order": self.section_order}, body),
                        encoding="utf-8")
        self.new_files.append(path)
        return number

    def exercise(self, pending: Pending, section: str) -> Path:
        converted = pending.converted
        if converted is None:
            raise ValueError("a description has no exercise file")
        self.exercise_order += 1
        slug = _slug(converted.title, self.slugs)
        data: dict[str, Any] = {"uuid": str(uuid.uuid4()), "slug": slug, "kind": "check",
                                "section": section, "order": self.exercise_order,
                                "title": converted.title, "prompt": converted.prompt}
        if converted.penalty is not None and 0 <= converted.penalty <= 1:
            data["penalty"] = converted.penalty
        if converted.parameters:
            data["parameters"] = converted.parameters
        if converted.derived:
            data["derived"] = converted.derived
        data["parts"] = converted.parts
        path = self.root / "exercises" / f"{slug}.toml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(dumps(data), encoding="utf-8")
        self.new_files.append(path)
        return path


def import_moodle_file(data: bytes, module_dir: Path, *, title: str = "Imported questions",
                       validators: Validators | None = None,
                       gift: bool = False) -> ImportReport:
    """Import a Moodle XML file into `module_dir` (created when missing); the report says what.

    With `gift`, `data` is a GIFT text file instead. Questions whose files fail the content
    validation are left out with its problems; if nothing can be written, or the module itself
    would not validate, nothing is written.
    """
    validators = validators if validators is not None else REGISTERED
    read = read_gift(data) if gift else read_moodle_xml(data)
    report = ImportReport(refused=read.refused)
    if read.refused:
        return report
    module_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".import-", dir=module_dir.parent))
    try:
        stage = _Stage(staging, module_dir, title)
        files = _write_all(stage, read.pending)
        outcomes = {id(p): p.outcome for p in read.pending}
        for _ in range(3):
            errors = validate_content(read_module_folder(stage.root), validators)
            if not errors:
                break
            failed: dict[str, list[str]] = {}
            for error in errors:
                failed.setdefault(error.path, []).append(f"{error.line}: {error.reason}")
            for pending, path in list(files.items()):
                display = path.relative_to(stage.root.parent).as_posix()
                if display in failed:
                    outcomes[id(pending)] = dataclasses.replace(
                        pending.outcome, status="skipped",
                        notes=("the converted question fails validation: " + "; ".join(
                            f"{display}:{p}" for p in failed[display]),))
                    path.unlink()
                    stage.new_files.remove(path)
                    del files[pending]
        else:
            report.refused = "the module would not validate: " + "; ".join(map(str, errors[:5]))
            return report
        for pending in read.pending:
            outcome = outcomes[id(pending)]
            if pending in files:
                outcome = dataclasses.replace(
                    outcome, file=files[pending].relative_to(stage.root).as_posix())
            report.outcomes.append(outcome)
        _move(stage, module_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return report


def _write_all(stage: _Stage, pending: list[Pending]) -> dict[Pending, Path]:
    categories: dict[str, list[Pending]] = {}
    for item in pending:
        categories.setdefault(item.category, []).append(item)
    files: dict[Pending, Path] = {}
    for category, items in categories.items():
        if not any(i.converted or i.description for i in items):
            continue
        body = "\n\n".join(i.description for i in items if i.description) or \
            f"Questions imported from the category {category}."
        number = stage.section(category, body)
        for item in items:
            if item.converted is not None:
                files[item] = stage.exercise(item, number)
    return files


def _move(stage: _Stage, module_dir: Path) -> None:
    """Move the new files in (a new module: the whole folder at once)."""
    if not module_dir.exists():
        stage.root.rename(module_dir)
        return
    for path in stage.new_files:
        target = module_dir / path.relative_to(stage.root)
        target.parent.mkdir(exist_ok=True)
        path.rename(target)
