"""`manage.py check_answers [FILE|-]`: grade JSON lines of answers, print JSON lines of verdicts."""

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from grading.batch import answers_check


class Command(BaseCommand):
    help = (
        "Grade answers given as JSON lines (FILE, or - for standard input) with the same "
        "checkers as the web; print one JSON line per input line, in order."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source", nargs="?", default="-")

    def handle(self, *args: Any, source: str, **options: Any) -> None:
        if source == "-":
            stream = sys.stdin
        else:
            path = Path(source)
            if not path.is_file():
                raise CommandError(f"{source}: no such file")
            stream = path.open(encoding="utf-8")
        try:
            for result in answers_check(stream):
                self.stdout.write(json.dumps(result, ensure_ascii=False))
        finally:
            if stream is not sys.stdin:
                stream.close()
