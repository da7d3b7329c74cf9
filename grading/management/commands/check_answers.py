"""`manage.py check_answers [FILE|-]`: grade JSON lines of answers, print JSON lines of verdicts."""

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from grading.batch import answers_check, result_line


class Command(BaseCommand):
    help = (
        "Grade answers given as JSON lines (FILE, or - for standard input) with the same "
        "checkers as the web; print one JSON line per input line, in order, as each is graded."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source", nargs="?", default="-")

    def handle(self, *args: Any, source: str, **options: Any) -> None:
        if source == "-":
            stream: Iterable[bytes | str] = getattr(sys.stdin, "buffer", sys.stdin)
            self._run(stream)
            return
        path = Path(source)
        if not path.is_file():
            raise CommandError(f"{source}: no such file")
        with path.open("rb") as lines:  # bytes: one invalid UTF-8 line spoils only itself
            self._run(lines)

    def _run(self, lines: Iterable[bytes | str]) -> None:
        for result in answers_check(lines):
            text = result_line(result)
            try:
                self.stdout.write(text)
            except UnicodeEncodeError:  # an output that is not UTF-8: escape what it cannot take
                self.stdout.write(json.dumps(result, ensure_ascii=True, allow_nan=False))
            self.stdout.flush()
