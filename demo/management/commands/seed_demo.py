"""`manage.py seed_demo --students N [--submissions-per-student K]`: a demo course run of
Module 5 with staff and students; with K, a large class with answers (bulk, fast)."""

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from demo.activity import demo_activity
from demo.bulk import large_class_seed
from demo.seeding import DEMO_PASSWORD, demo_seed

#: Accounts created one by one (each with its own password hash); the rest in bulk.
NAMED_STUDENTS = 3
#: Each classmate's answers, and how many of them run every lab.
CLASSMATE_ANSWERS = 12
CLASSMATE_LAB_RUNS = 6


class Command(BaseCommand):
    help = ("Create a demo course run of the synced module with an instructor, a TA and N "
            "students; with --submissions-per-student, a large class with answers drawn from "
            "the module's misconceptions (PostgreSQL COPY; progress rows rebuilt).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--students", type=int, default=3)
        parser.add_argument("--submissions-per-student", type=int, default=0,
                            help="answers per student (default 0: none)")
        parser.add_argument("--classmates", type=int, default=0,
                            help="more students who have already answered and run labs "
                                 "(default 0), so the dashboard has something to show")
        parser.add_argument("--course", default="module-05-demo", help="course slug")
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing if any course exists already"
        )

    def handle(self, *args: Any, students: int, course: str, if_empty: bool,
               submissions_per_student: int, classmates: int, **options: Any) -> None:
        if students < 0 or submissions_per_student < 0 or classmates < 0:
            raise CommandError("--students, --submissions-per-student and --classmates must "
                               "be 0 or more")
        if classmates and (submissions_per_student or students > 100):
            raise CommandError("--classmates is for a small demo; a large class takes "
                               "--submissions-per-student")
        bulk = submissions_per_student > 0 or students > 100
        named = min(students, NAMED_STUDENTS) if bulk else students
        result = demo_seed(course_slug=course, students=named, only_if_empty=if_empty)
        if result is None:
            self.stdout.write("Demo not seeded: courses exist already.")
            return
        if bulk:
            started = time.monotonic()
            added, answers = large_class_seed(
                course=result.course, students=students, per_student=submissions_per_student,
                first=1, progress=self._progress_bar, password=DEMO_PASSWORD)
            self.stderr.write("")
            self.stdout.write(f"{added} students added in bulk, {answers} answers written, "
                              f"progress rebuilt in {time.monotonic() - started:.1f} s.")
        if classmates:
            answers, runs = demo_activity(
                course=result.course, first=named + 1, classmates=classmates,
                per_student=CLASSMATE_ANSWERS, lab_runs=CLASSMATE_LAB_RUNS,
                password=DEMO_PASSWORD)
            self.stdout.write(f"{classmates} classmates (student{named + 1}..student"
                              f"{named + classmates}) with {answers} answers and {runs} "
                              "finished lab runs.")
        self.stdout.write(self.style.SUCCESS(f"Demo course '{result.course.title}' ready."))
        self.stdout.write(f"Demo accounts (demo only; password for all: {DEMO_PASSWORD}):")
        for username, role in result.accounts:
            note = " (the module's own numbers: 0.85, 40 steps, ...)" \
                if username in result.module_numbers else ""
            self.stdout.write(f"  {username:<14} {role}{note}")
        if bulk and students > named:
            self.stdout.write(f"  student{named + 1}..student{students} student")

    def _progress_bar(self, stage: str, done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        self.stderr.write(f"\r{stage:<10} [{'#' * filled}{'.' * (width - filled)}] "
                          f"{done}/{total}", ending="")
        self.stderr.flush()
