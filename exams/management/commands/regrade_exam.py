"""`manage.py regrade_exam --question SLUG [--module SLUG] [--course SLUG] [--dry-run]`: grade
one question of the closed exam attempts again after a fix of its spec; the changed verdicts
and attempt scores are listed as `regrade` lists exercises'."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from courses.models import Course
from exams.models import Question
from exams.regrade import question_regrade


class Command(BaseCommand):
    help = ("Regrade a question of the closed exam attempts with its current spec and the "
            "current grader; --dry-run lists what would change and stores nothing.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--question", required=True, help="question slug (or uuid)")
        parser.add_argument("--module", help="module slug, when the slug is in several")
        parser.add_argument("--course", help="course slug (default: every course)")
        parser.add_argument("--dry-run", action="store_true",
                            help="store nothing; list the verdicts and scores that would change")

    def handle(self, *args: Any, question: str, module: str | None, course: str | None,
               dry_run: bool, **options: Any) -> None:
        found = Question.objects.filter(slug=question)
        if len(question) == 36:
            found = Question.objects.filter(uuid=question)
        if module:
            found = found.filter(module__slug=module)
        matches = list(found[:2])
        if len(matches) != 1:
            raise CommandError("no such question" if not matches else
                               "several modules have this question; give --module")
        in_course = None
        if course:
            in_course = Course.objects.filter(slug=course).first()
            if in_course is None:
                raise CommandError("no such course")
        report = question_regrade(question=matches[0], course=in_course, dry_run=dry_run)
        for change in report.changed:
            self.stdout.write(f"  #{change.submission_id} {change.student} {change.part} "
                              f"{change.raw_answer!r}: {change.before[0]} {change.before[1]} "
                              f"-> {change.after[0]} {change.after[1]}")
        for attempt in report.attempts:
            before = "-" if attempt.before is None else f"{attempt.before:.4f}"
            self.stdout.write(f"  attempt #{attempt.attempt_id} {attempt.student} "
                              f"{attempt.assessment}: score {before} -> {attempt.after:.4f}")
        summary = (f"{report.examined} answer(s) examined, {len(report.changed)} verdict(s) "
                   f"and {len(report.attempts)} attempt score(s)")
        if dry_run:
            self.stdout.write(self.style.WARNING(f"{summary} would change (dry run: nothing "
                                                 "stored)"))
        else:
            self.stdout.write(self.style.SUCCESS(f"{summary} changed"))
