"""`manage.py sync_content [PATH]`: validate the content files, then bring the database in line."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from courses.services import ContentInvalid, content_sync


class Command(BaseCommand):
    help = (
        "Validate every content file under PATH (default: the repository's content folder) "
        "and, only if all are valid, upsert them by uuid in one transaction. "
        "Removed items are archived, never deleted."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", type=Path, default=None)
        parser.add_argument(
            "--check", action="store_true", help="validate and report changes, apply nothing"
        )

    def handle(self, *args: Any, path: Path | None, check: bool, **options: Any) -> None:
        root = path or Path(settings.CONTENT_ROOT)
        try:
            report = content_sync(root=root, dry_run=check)
        except ContentInvalid as exc:
            for error in exc.errors:
                self.stderr.write(str(error))
            raise CommandError(
                f"{len(exc.errors)} problem(s) found; nothing was applied."
            ) from exc
        for line in report.lines():
            self.stdout.write(f"  {line}")
        verb = "would change" if check else "changed"
        self.stdout.write(
            self.style.SUCCESS(
                f"{report.change_count} {verb}, {report.unchanged} unchanged "
                f"({len(report.created)} created, {len(report.updated)} updated, "
                f"{len(report.archived)} archived, {len(report.restored)} restored)"
            )
        )
