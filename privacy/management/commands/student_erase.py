"""`manage.py student_erase --user ID|USERNAME|EMAIL --confirm`: erase one person's data."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from privacy.erasure import personal_data_erase
from privacy.people import PersonNotFound, person_find


class Command(BaseCommand):
    help = ("Remove or anonymise everything the service holds about a person (their scores stay "
            "in the statistics under a pseudonym); recorded in the audit log. Irreversible: "
            "export first (student_export) if the person asked for their data too.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="user id, username or e-mail")
        parser.add_argument("--confirm", action="store_true",
                            help="required: erasure cannot be undone")
        parser.add_argument("--reason", default="", help="e.g. the request's reference number")

    def handle(self, *args: Any, user: str, confirm: bool, reason: str, **options: Any) -> None:
        if not confirm:
            raise CommandError("Erasure cannot be undone: run again with --confirm.")
        try:
            person = person_find(user)
        except PersonNotFound as exc:
            raise CommandError(str(exc)) from exc
        record = personal_data_erase(user=person, reason=reason)
        changed = ", ".join(f"{name}: {count}" for name, count in record.changed.items())
        self.stdout.write(f"Erased user {person.pk}; now {record.pseudonym} ({changed}).")
