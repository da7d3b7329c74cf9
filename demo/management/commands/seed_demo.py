"""`manage.py seed_demo --students N`: a demo course run of Module 5 with staff and students."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from demo.seeding import DEMO_PASSWORD, demo_seed


class Command(BaseCommand):
    help = "Create a demo course run of the synced module with an instructor, a TA and N students."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--students", type=int, default=3)
        parser.add_argument("--course", default="module-05-demo", help="course slug")
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing if any course exists already"
        )

    def handle(self, *args: Any, students: int, course: str, if_empty: bool, **options: Any) -> None:
        if students < 0:
            raise CommandError("--students must be 0 or more")
        result = demo_seed(course_slug=course, students=students, only_if_empty=if_empty)
        if result is None:
            self.stdout.write("Demo not seeded: courses exist already.")
            return
        self.stdout.write(self.style.SUCCESS(f"Demo course '{result.course.title}' ready."))
        self.stdout.write(f"Demo accounts (demo only; password for all: {DEMO_PASSWORD}):")
        for username, role in result.accounts:
            note = " (the module's own numbers: 0.85, 40 steps, ...)" \
                if username in result.module_numbers else ""
            self.stdout.write(f"  {username:<14} {role}{note}")
