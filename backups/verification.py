"""Checking a restored database against its backup's manifest and against this code."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.migrations.loader import MigrationLoader

from backups.manifest import TableState


@dataclass(frozen=True)
class TableCheck:
    """One table as the manifest recorded it and as the restored database holds it (None:
    absent on that side)."""

    table: str
    expected: TableState | None
    found: TableState | None

    @property
    def matches(self) -> bool:
        return self.expected is not None and self.expected == self.found

    def describe(self) -> str:
        """A line for the operator saying how the table differs (or that it matches)."""
        if self.matches:
            return f"{self.table}: {self.found.rows if self.found else 0} rows, identical"
        if self.found is None:
            return f"{self.table}: missing from the restored database"
        if self.expected is None:
            return f"{self.table}: in the restored database but not in the backup"
        if self.expected.rows != self.found.rows:
            return f"{self.table}: {self.found.rows} rows restored, {self.expected.rows} backed up"
        return f"{self.table}: {self.found.rows} rows but their content differs from the backup"


def tables_compare(expected: dict[str, TableState],
                   found: dict[str, TableState]) -> list[TableCheck]:
    """Every table of either side, by name, with both states."""
    return [TableCheck(table=name, expected=expected.get(name), found=found.get(name))
            for name in sorted(set(expected) | set(found))]


def migrations_compare(applied: dict[str, list[str]]) -> tuple[list[str], list[str]]:
    """(migrations of this code the database has not applied, migrations it has applied that
    this code does not know), as "app.name". The first means `manage.py migrate` is due; the
    second that the backup came from newer code."""
    known = {f"{app}.{name}" for app, name in MigrationLoader(None, ignore_no_migrations=True).graph.nodes}
    done = {f"{app}.{name}" for app, names in applied.items() for name in names}
    return sorted(known - done), sorted(done - known)
