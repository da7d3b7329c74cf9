"""`manage.py prepare_local --students N`: bin/run's start-up steps in one process (migrate,
collect static files, sync the content, seed the demo on a new database).

One process instead of four: Django, the checkers (sympy) and the models load once.
"""

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = ("Migrate, collect static files, sync the content and seed the demo course on a new "
            "database: the steps bin/run takes before it starts the server, in one process.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--students", type=int, default=3, help="demo students (default 3)")
        parser.add_argument("--classmates", type=int, default=24,
                            help="students who have already answered and run labs (default 24)")

    def handle(self, *args: Any, students: int, classmates: int, **options: Any) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        call_command("sync_content")
        call_command("seed_demo", students=students, classmates=classmates, if_empty=True)
