"""`manage.py restore_database --input PATH --confirm [--replace]`: restore a backup, verify it."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from backups.errors import BackupError
from backups.services import RestoreReport, backup_restore, database_description


class Command(BaseCommand):
    help = (
        "Restore the backup folder PATH (written by backup_database) into the configured "
        "database, which must be empty unless --replace, and the files into their folders; "
        "then check every table's row count and content digest against the backup's "
        "manifest. Stop the web server and workers first."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--input", required=True, type=Path, help="the backup folder")
        parser.add_argument("--confirm", action="store_true",
                            help="required: you mean to write into the configured database")
        parser.add_argument("--replace", action="store_true",
                            help="drop what the database (and file folders) hold first")

    def handle(self, *args: Any, confirm: bool, replace: bool, **options: Any) -> None:
        source = Path(options["input"])  # a str when called through call_command
        target = database_description(connection)
        if not confirm:
            raise CommandError(
                f"Not restoring without --confirm: this writes the backup into {target}. "
                "Check that DATABASE_URL names the database you mean, then run again with "
                "--confirm."
            )
        try:
            report = backup_restore(source=source, replace=replace)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self._print(report, source=source, target=target)
        if not report.ok:
            raise CommandError(f"The restored database differs from the backup in "
                               f"{len(report.mismatches)} table(s); do not use it.")

    def _print(self, report: RestoreReport, *, source: Path, target: str) -> None:
        manifest = report.manifest
        self.stdout.write(f"Restored {source.resolve()} (a {manifest.engine} backup taken "
                          f"{manifest.created_at}) into {target}.")
        for check in report.mismatches:
            self.stderr.write(f"  DIFFERS {check.describe()}")
        if report.ok:
            self.stdout.write(self.style.SUCCESS(
                f"Verified: all {len(report.tables)} tables and {manifest.total_rows} rows match "
                "the backup's manifest (row counts and content digests)."))
        self.stdout.write(f"  files restored: {report.files_restored}")
        if report.migrations_missing:
            self.stdout.write(self.style.WARNING(
                f"  {len(report.migrations_missing)} migrations of this code are not applied in "
                f"the restored database ({', '.join(report.migrations_missing[:5])}...): run "
                "`manage.py migrate`."))
        if report.migrations_unknown:
            self.stdout.write(self.style.WARNING(
                f"  the restored database has {len(report.migrations_unknown)} migrations this "
                f"code does not know ({', '.join(report.migrations_unknown[:5])}...): it was "
                "backed up from newer code; deploy that code before starting the service."))
        if not report.migrations_missing and not report.migrations_unknown:
            self.stdout.write("  migrations: the restored database is at this code's state.")
