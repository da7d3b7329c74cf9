"""`manage.py progress_rebuild [--course slug]`: recompute the kept progress rows exactly
from submissions and overrides (repair, or after a bulk load)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from courses.models import Course
from grading.progress_rebuild import progress_rebuild


class Command(BaseCommand):
    help = "Rebuild the per-(student, part) and per-(student, course) progress rows."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--course", help="course slug (default: every course)")

    def handle(self, *args: Any, course: str | None, **options: Any) -> None:
        courses = Course.objects.order_by("pk")
        if course:
            courses = courses.filter(slug=course)
            if not courses.exists():
                raise CommandError(f"No course {course!r}.")
        for each in courses:
            self.stderr.write(f"{each.slug}: ", ending="")
            rows = progress_rebuild(course=each, progress=self._progress_bar)
            self.stderr.write("")
            self.stdout.write(f"{each.slug}: {rows} progress rows rebuilt.")

    def _progress_bar(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        self.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} answers",
                          ending="")
        self.stderr.flush()
