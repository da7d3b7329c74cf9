"""`submission_create` today against a naive-ORM answer path, in the same run.

Run on demand (PostgreSQL as in production, or SQLite by default):
  DATABASE_URL=postgres://postgres@127.0.0.1:5432/gs_bench \
  RUN_BENCHMARKS=1 pytest tests/benchmarks/test_answer_path.py -s
The baseline is the answer path as it was before issue 21, kept runnable in
legacy_answer_path.py beside this file: every read a plain QuerySet built per call, the
progress row re-aggregated. It stands for "before" the compiled querysets and the content
cache of issue 39 too (the hand-written statements they replaced are gone), so the ratio is
what the read model buys over the plain ORM. The same students answer the same part in
turns, one answer through each path, with a history of earlier answers that grows as they
go; each answer is timed and its queries counted. Prints p50/p99 and queries per answer
for both and the ratio of medians. Target (issue 21): the new path's p50 at least 2x
faster. Asserts no time (machines are shared).
"""

import statistics
import time

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from courses.models import Enrollment, Exercise, Part
from grading.services import submission_create
from tests.benchmarks.legacy_answer_path import legacy_submission_create
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.benchmark

STUDENTS = 30
ROUNDS = 6


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def test_submission_create_against_the_old_path(transactional_db, course, module_05) -> None:
    part = Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")
    Exercise.objects.filter(pk=part.exercise_id).update(max_attempts=0)
    part = Part.objects.select_related("exercise").get(pk=part.pk)
    students: list[User] = []
    for i in range(2 * STUDENTS):
        user: User = UserFactory.create(username=f"bench-{i}")
        EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
        students.append(user)
    old_students, new_students = students[:STUDENTS], students[STUDENTS:]
    timings: dict[str, list[float]] = {"old": [], "new": []}
    queries: dict[str, list[int]] = {"old": [], "new": []}
    for round_ in range(ROUNDS):
        for old_student, new_student in zip(old_students, new_students, strict=True):
            for name, student, create in (("old", old_student, legacy_submission_create),
                                          ("new", new_student, submission_create)):
                # A different wrong answer each round: every answer is graded and counted.
                answer = f"0.{round_ + 1}{student.pk % 10}7"
                with CaptureQueriesContext(connection) as captured:
                    start = time.perf_counter()
                    create(student=student, course=course, part=part, raw_answer=answer)
                    timings[name].append(time.perf_counter() - start)
                queries[name].append(len(captured))
    print(f"\nsubmission_create on {connection.vendor}, {len(timings['new'])} answers each")
    for name in ("old", "new"):
        values = timings[name]
        print(f"  {name}: p50 {statistics.median(values) * 1000:.2f} ms, "
              f"p99 {_p(values, 0.99) * 1000:.2f} ms, "
              f"queries per answer {statistics.median(queries[name]):.0f} "
              f"(first answer {queries[name][0]})")
    ratio = statistics.median(timings["old"]) / statistics.median(timings["new"])
    print(f"  p50 speed-up: {ratio:.2f}x (target >= 2x)")
