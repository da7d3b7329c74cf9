"""Speed of the instructor's dashboard for a class of 1,000 students, against a bare SQL query
that reads the same submission rows, measured in the same run.

Run on demand: RUN_BENCHMARKS=1 pytest tests/benchmarks/test_dashboard_speed.py -s
(and with DATABASE_URL=postgres://... for PostgreSQL). Prints p50/p99 page times, the CSV
export time and ratios against the baseline; asserts no time.
"""

import random
import time
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from courses.models import Enrollment, Part
from grading.models import PartProgress, StudentProgress, Submission
from grading.progress_rebuild import progress_rebuild
from grading.variants import seed_for

pytestmark = pytest.mark.benchmark

STUDENTS = 1000
RUNS = 40
User = get_user_model()


def build_class(course, students: int, rng: random.Random) -> int:
    """`students` students in 8 groups; on every part 1 to 5 answers (3 on average), a mix of
    wrong answers (some with a misconception), answers awaiting review on text parts, and a
    final correct answer for about 70%. Returns the number of submissions."""
    users = User.objects.bulk_create([
        User(username=f"student{i:05d}", first_name=f"Given{i}", last_name=f"Family{i:05d}",
             email=f"student{i}@example.org") for i in range(students)])
    Enrollment.objects.bulk_create([
        Enrollment(user=u, course=course, role=Enrollment.Role.STUDENT, group=f"group-{i % 8}")
        for i, u in enumerate(users)])
    parts = list(Part.objects.active().filter(exercise__module_id=course.module_id)
                 .select_related("exercise"))
    tags = ["linear-decay", "fraction-lost", "off-by-one", ""]
    start = timezone.now() - timedelta(days=20)
    rows = []
    for user in users:
        for part in parts:
            seed = (seed_for(course.pk, part.exercise.uuid, user.pk)
                    if part.exercise.parameters else None)
            attempts = rng.choice([1, 2, 3, 3, 4, 5])
            solved = rng.random() < 0.7
            for k in range(attempts):
                last = k == attempts - 1
                if part.answer_type == "text" and last and rng.random() < 0.2:
                    outcome, score, canonical, tag = "review", None, "", ""
                elif last and solved:
                    outcome, score, canonical, tag = "correct", max(0.6, 1 - 0.1 * k), "ref", ""
                else:
                    outcome, score = "incorrect", 0.0
                    canonical, tag = f"wrong-{rng.randint(0, 12)}", rng.choice(tags)
                rows.append(Submission(
                    student=user, course=course, part=part, raw_answer=f"typed {k}",
                    canonical=canonical, outcome=outcome, score=score, misconception=tag,
                    counts_as_attempt=True, variant_seed=seed,
                    graded_at=start + timedelta(hours=rng.randint(0, 480)),
                ))
    Submission.objects.bulk_create(rows, batch_size=5000)
    progress_rebuild(course=course)  # the kept rows, as the services would have written them
    if connection.vendor == "postgresql":
        # Planner statistics, as autovacuum would have gathered them for a real class
        # (without them PostgreSQL picks nested loops for the fresh tables).
        with connection.cursor() as cursor:
            for model in (Submission, Enrollment, User, PartProgress, StudentProgress):
                cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")
    return len(rows)


def paired(fn: Callable[[], object], baseline: Callable[[], object],
           runs: int) -> tuple[list[float], list[float]]:
    """Times of `fn` and of `baseline`, run alternately, so that load from other processes
    on the machine weighs on both alike."""
    fn()
    baseline()  # warm caches (templates, query plans)
    times, base = [], []
    for _ in range(runs):
        begin = time.perf_counter()
        baseline()
        base.append(time.perf_counter() - begin)
        begin = time.perf_counter()
        fn()
        times.append(time.perf_counter() - begin)
    return times, base


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bare_rows(course_id: int) -> Callable[[], object]:
    """The baseline: the course's submission rows the dashboard aggregates, read raw."""
    table = Submission._meta.db_table

    def read() -> object:
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT student_id, part_id, outcome, score, counts_as_attempt, created_at "  # noqa: S608
                f"FROM {table} WHERE course_id = %s", [course_id])
            return cursor.fetchall()

    return read


def test_dashboard_pages_and_csv_for_a_class_of_1000(client, course, irene):
    rng = random.Random(5)
    begin = time.perf_counter()
    count = build_class(course, STUDENTS, rng)
    print(f"\n{connection.vendor}: built {STUDENTS} students, {count} submissions in "
          f"{time.perf_counter() - begin:.1f} s")
    client.force_login(irene)

    def get(name: str, query: str = "") -> Callable[[], object]:
        url = reverse(f"dashboard:{name}", kwargs={"course_slug": course.slug}) + query

        def fetch() -> object:
            response = client.get(url)
            assert response.status_code == 200
            return b"".join(response.streaming_content) if response.streaming else response.content

        return fetch

    bare = bare_rows(course.pk)
    cases = [
        ("matrix (page 1, by name)", get("matrix"), RUNS),
        ("matrix (sorted by total)", get("matrix", "?sort=total&desc=1"), RUNS),
        ("matrix (one group)", get("matrix", "?group=group-3"), RUNS),
        ("statistics", get("statistics"), RUNS),
        ("overview (charts)", get("overview"), 20),
        ("gradebook CSV", get("gradebook-csv"), 20),
        ("submissions CSV", get("submissions-csv"), 10),
    ]
    print(f"baseline: bare SQL reading the course's {count} submission rows, timed "
          "alternately with each page")
    print(f"{'page':26} {'p50 ms':>8} {'p99 ms':>8} {'bare p50':>9} {'p50/bare':>9}")
    for label, fn, runs in cases:
        times, base = paired(fn, bare, runs)
        print(f"{label:26} {p(times, 0.5) * 1000:8.1f} {p(times, 0.99) * 1000:8.1f} "
              f"{p(base, 0.5) * 1000:9.1f} {p(times, 0.5) / p(base, 0.5):8.2f}x")
