"""A Moodle XML upload imported into a new module folder, handed back as a zip to commit.

The web upload (the instructor's Content page) cannot write into a course's repository; it
imports into a temporary folder with the same staging and validation as the command, and
returns the report, the files written (to read on the page) and a zip of the module folder,
to add to the course's repository and sync.
"""

import io
import re
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from interchange.module_writer import import_moodle_file
from interchange.report import ImportReport

MODULE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,49}")


@dataclass
class ImportBundle:
    """The report, each file written (path in the module, text) and the module as a zip."""

    report: ImportReport
    module: str
    files: list[tuple[str, str]] = field(default_factory=list)
    archive: bytes = b""


def moodle_import_bundle(*, data: bytes, module: str, title: str,
                         gift: bool = False) -> ImportBundle:
    """Import `data` (Moodle XML, or GIFT with `gift`) as the new module folder `module`.

    Raises ValueError for a bad folder name."""
    if not MODULE_NAME.fullmatch(module):
        raise ValueError("the module folder name is lower-case letters, digits and hyphens")
    with tempfile.TemporaryDirectory(prefix="moodle-import-") as temp:
        target = Path(temp) / module
        report = import_moodle_file(data, target, title=title, gift=gift)
        bundle = ImportBundle(report=report, module=module)
        if report.refused or not target.exists():
            return bundle
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(p for p in target.rglob("*") if p.is_file()):
                name = f"{module}/{path.relative_to(target).as_posix()}"
                text = path.read_text(encoding="utf-8")
                bundle.files.append((name, text))
                archive.writestr(name, text)
        bundle.archive = buffer.getvalue()
    return bundle
