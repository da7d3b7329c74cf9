"""`manage.py import_questions FILE --module PATH`: a Moodle XML bank into a module folder."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from interchange.module_writer import import_moodle_file
from interchange.safe_xml import MAX_XML_BYTES


class Command(BaseCommand):
    help = (
        "Import the questions of a Moodle XML file (or a GIFT file: .gift or .txt) into a "
        "module folder (created when missing), as ordinary content files validated in every "
        "variant; print the report."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--module", type=Path, required=True,
                            help="the module folder to write into")
        parser.add_argument("--title", default="Imported questions",
                            help="the title of a new module")

    def handle(self, *args: Any, file: Path, module: Path, title: str, **options: Any) -> None:
        if not file.is_file():
            raise CommandError(f"{file}: no such file")
        if file.stat().st_size > MAX_XML_BYTES:
            raise CommandError(f"{file}: larger than {MAX_XML_BYTES:,} bytes; refused")
        gift = file.suffix.lower() in (".gift", ".txt")
        report = import_moodle_file(file.read_bytes(), module, title=title, gift=gift)
        for line in report.lines()[:-1]:
            self.stdout.write(f"  {line}")
        if report.refused:
            raise CommandError(report.summary())
        self.stdout.write(self.style.SUCCESS(report.summary()))
