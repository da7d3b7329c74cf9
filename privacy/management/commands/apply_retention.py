"""`manage.py apply_retention [--dry-run]`: what the retention settings remove, now."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from privacy.retention import retention_apply


class Command(BaseCommand):
    help = ("Remove raw answers, lab runs and webhook delivery logs older than the RETENTION_* "
            "settings allow after their course ended (scores stay). --dry-run only reports.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="report, remove nothing")

    def handle(self, *args: Any, dry_run: bool, **options: Any) -> None:
        report = retention_apply(dry_run=dry_run)
        for name, days in report.periods.items():
            self.stdout.write(f"{name} = {'keep forever' if days is None else f'{days} days'}")
        for line in report.lines():
            self.stdout.write(line)
