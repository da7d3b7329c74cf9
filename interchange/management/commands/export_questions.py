"""`manage.py export_questions MODULE_PATH [-o FILE]`: a module's parts to Moodle XML."""

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from interchange.moodle_export import export_module


class Command(BaseCommand):
    help = ("Export a module folder's numeric, integer and choice parts to Moodle XML "
            "(calculated questions with the variants as their dataset); list the parts left out.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("module", type=Path)
        parser.add_argument("--exercise", action="append", default=[], metavar="SLUG",
                            help="export only this exercise (repeatable)")
        parser.add_argument("-o", "--output", type=Path, default=None,
                            help="the XML file to write (default: standard output)")

    def handle(self, *args: Any, module: Path, output: Path | None, exercise: list[str],
               **options: Any) -> None:
        if not (module / "module.toml").is_file():
            raise CommandError(f"{module}: no module.toml here")
        try:
            xml, skipped = export_module(module, exercise or None)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if output is None:
            sys.stdout.buffer.write(xml)
        else:
            output.write_bytes(xml)
        for line in skipped:
            self.stderr.write(f"not exported: {line}")
