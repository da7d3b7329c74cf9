"""`manage.py regrade (--exercise SLUG [--part KEY] | --all) [--dry-run]`: grade stored answers
again after a fix, or list the verdicts a new grader would change."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from grading.checkers import GRADER_VERSION
from grading.models import Submission
from grading.regrade import ScoreChange, submissions_regrade


class Command(BaseCommand):
    help = ("Regrade stored submissions of an exercise (or one of its parts, or all) with the "
            "current spec and grader; --dry-run lists the verdicts that would change and "
            "stores nothing.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--exercise", help="exercise slug")
        parser.add_argument("--part", help="part key (default: every part of the exercise)")
        parser.add_argument("--course", help="course slug (default: every course)")
        parser.add_argument("--all", action="store_true", dest="every",
                            help="every exercise (instead of --exercise)")
        parser.add_argument("--dry-run", action="store_true",
                            help="store nothing; list the stored verdicts that would change")

    def handle(self, *args: Any, exercise: str | None, part: str | None, course: str | None,
               every: bool, dry_run: bool, **options: Any) -> None:
        if bool(exercise) == every:
            raise CommandError("give either --exercise SLUG or --all")
        submissions = Submission.objects.all()
        if exercise:
            submissions = submissions.filter(part__exercise__slug=exercise)
        if part:
            submissions = submissions.filter(part__key=part)
        if course:
            submissions = submissions.filter(course__slug=course)
        if not submissions.exists():
            raise CommandError("no submissions match; check --exercise, --part and --course")
        report = submissions_regrade(submissions=submissions, progress=self._progress_bar,
                                     dry_run=dry_run)
        self.stderr.write("")
        for change in report.changed:
            self.stdout.write(self._line(change))
        if dry_run:
            self.stdout.write(self.style.WARNING(
                f"{report.examined} examined with grader {GRADER_VERSION}, "
                f"{len(report.changed)} verdict(s) would change (dry run: nothing stored)"))
        else:
            self.stdout.write(self.style.SUCCESS(
                f"{report.examined} regraded, {len(report.changed)} verdict(s) changed"))

    @staticmethod
    def _line(change: ScoreChange) -> str:
        line = (f"  #{change.submission_id} {change.student} {change.part} "
                f"{change.raw_answer!r}: {change.before[0]} {change.before[1]} -> "
                f"{change.after[0]} {change.after[1]}")
        if change.misconception_before != change.misconception_after:
            line += (f" (misconception {change.misconception_before or '-'} -> "
                     f"{change.misconception_after or '-'})")
        if change.grader_version_before and change.grader_version_before != GRADER_VERSION:
            line += f" [graded by {change.grader_version_before}]"
        return line

    def _progress_bar(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        self.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", ending="")
        self.stderr.flush()
