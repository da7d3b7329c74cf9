"""`manage.py regrade --exercise SLUG [--part KEY]`: grade stored answers again after a fix."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from grading.models import Submission
from grading.regrade import submissions_regrade


class Command(BaseCommand):
    help = "Regrade stored submissions of an exercise (or one of its parts) with the current spec."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--exercise", required=True, help="exercise slug")
        parser.add_argument("--part", help="part key (default: every part of the exercise)")
        parser.add_argument("--course", help="course slug (default: every course)")

    def handle(self, *args: Any, exercise: str, part: str | None, course: str | None,
               **options: Any) -> None:
        submissions = Submission.objects.filter(part__exercise__slug=exercise)
        if part:
            submissions = submissions.filter(part__key=part)
        if course:
            submissions = submissions.filter(course__slug=course)
        if not submissions.exists():
            raise CommandError("no submissions match; check --exercise, --part and --course")
        report = submissions_regrade(submissions=submissions, progress=self._progress_bar)
        self.stderr.write("")
        for change in report.changed:
            self.stdout.write(
                f"  #{change.submission_id} {change.student} {change.part} "
                f"{change.raw_answer!r}: {change.before[0]} {change.before[1]} -> "
                f"{change.after[0]} {change.after[1]}")
        self.stdout.write(self.style.SUCCESS(
            f"{report.examined} regraded, {len(report.changed)} score(s) changed"))

    def _progress_bar(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        self.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", ending="")
        self.stderr.flush()
