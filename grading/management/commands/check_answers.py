"""`manage.py check_answers [FILE|-]`: grade JSON lines of answers, print JSON lines of verdicts.

`--variant N` or `--params JSON` chooses the variant of the lines that name a content part;
their results show the parameters drawn ("params")."""

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
        choice = parser.add_mutually_exclusive_group()
        choice.add_argument("--variant", type=int, default=None, help=(
            "grade content lines in this variant number (0: the module's numbers; 1..N as "
            "sync numbers them) unless a line chooses its own"))
        choice.add_argument("--params", default=None, help=(
            "grade content lines with these parameter values, a JSON object such as "
            "'{\"sigma\": 0.9}' (the others keep their defaults)"))

    def handle(self, *args: Any, source: str, variant: int | None = None,
               params: str | None = None, **options: Any) -> None:
        self._defaults: dict[str, Any] = {}
        if variant is not None:
            self._defaults["variant"] = variant
        if params is not None:
            try:
                values = json.loads(params)
            except json.JSONDecodeError as exc:
                raise CommandError(f"--params is not JSON: {exc.msg}") from None
            if not isinstance(values, dict):
                raise CommandError("--params must be a JSON object")
            self._defaults["params"] = values
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
        for result in answers_check(lines, defaults=self._defaults):
            text = result_line(result)
            try:
                self.stdout.write(text)
            except UnicodeEncodeError:  # an output that is not UTF-8: escape what it cannot take
                self.stdout.write(json.dumps(result, ensure_ascii=True, allow_nan=False))
            self.stdout.flush()
