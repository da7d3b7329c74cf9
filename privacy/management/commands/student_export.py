"""`manage.py student_export --user ID|USERNAME|EMAIL [--output DIR]`: everything about one person."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from privacy.export import personal_data_write
from privacy.people import PersonNotFound, person_find


class Command(BaseCommand):
    help = ("Write one JSON file and one readable HTML page with everything the service holds "
            "about a person (account, enrolments, answers and verdicts, reviews, lab runs, "
            "API and LMS identifiers).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="user id, username or e-mail")
        parser.add_argument("--output", type=Path, default=None,
                            help="folder for the two files (default var/exports)")

    def handle(self, *args: Any, user: str, output: Path | None, **options: Any) -> None:
        try:
            person = person_find(user)
        except PersonNotFound as exc:
            raise CommandError(str(exc)) from exc
        folder = output or Path(settings.BASE_DIR) / "var" / "exports"
        json_path, html_path = personal_data_write(user=person, folder=folder)
        self.stdout.write(f"{json_path}\n{html_path}")
