"""`manage.py backup_database --output PATH`: back up the database and files into a new folder."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from backups.errors import BackupError
from backups.services import backup_create, database_description


class Command(BaseCommand):
    help = (
        "Back up the configured database (SQLite: online backup API; PostgreSQL: pg_dump, "
        "custom format) and the files the service keeps on disk into the new folder PATH, "
        "with a manifest (engine, migrations, row counts and digests per table). Safe while "
        "the service runs."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", required=True, type=Path,
                            help="a new folder to write the backup into")

    def handle(self, *args: Any, output: Path, **options: Any) -> None:
        output = Path(output)  # a str when called through call_command
        try:
            manifest = backup_create(output=output)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        files = sum(len(items) for items in manifest.files.values())
        migrations = sum(len(names) for names in manifest.migrations.values())
        self.stdout.write(self.style.SUCCESS(f"Backup of {database_description(connection)} "
                                             f"written to {output.resolve()}"))
        self.stdout.write(f"  engine: {manifest.engine} {manifest.server_version} "
                          f"({manifest.dump_tool_version})")
        self.stdout.write(f"  {len(manifest.tables)} tables, {manifest.total_rows} rows, "
                          f"{migrations} migrations applied, {files} files; "
                          f"{manifest.database_file}: {manifest.database_bytes} bytes")
