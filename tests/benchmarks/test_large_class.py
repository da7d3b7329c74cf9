"""A course of 50,000 students and 2,000,000 submissions (issue 14's targets): dashboard
pages, the API, the gradebook CSV (first byte, rows/s, peak memory at 5,000 and 50,000
students) and the cost of submitting after 1 or 200 earlier attempts.

Run on demand, on PostgreSQL (seeding takes minutes on a small machine):
  RUN_BENCHMARKS=1 DATABASE_URL=postgres://... pytest tests/benchmarks/test_large_class.py -s
BENCH_STUDENTS / BENCH_PER_STUDENT change the size (default 50000 x 40). Prints p50/p99
and ratios against baselines timed alternately in the same run; asserts no time.
"""

import os
import time
import tracemalloc
from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from api.keys import api_key_create
from courses.models import Course, Enrollment, Exercise, Part
from demo.bulk import large_class_seed
from grading.models import Submission
from grading.services import submission_create
from grading.variant_fairness import variant_fairness
from tests.benchmarks.test_dashboard_speed import p, paired
from tests.factories import progress_sync

pytestmark = pytest.mark.benchmark

STUDENTS = int(os.environ.get("BENCH_STUDENTS", "50000"))
PER_STUDENT = int(os.environ.get("BENCH_PER_STUDENT", "40"))
SMALL = max(1, STUDENTS // 10)
RUNS = 20


def _seed(course: Course, students: int, first: int) -> float:
    begin = time.perf_counter()
    large_class_seed(course=course, students=first + students - 1, first=first,
                     per_student=PER_STUDENT)
    return time.perf_counter() - begin


def _bare_count(course_id: int) -> Callable[[], object]:
    """Baseline: one bare aggregate over the course's submissions (what any design that
    aggregates answers at read time pays at least)."""
    def read() -> object:
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*), MAX(score) FROM grading_submission "
                           "WHERE course_id = %s", [course_id])
            return cursor.fetchone()
    return read


def _bare_page() -> Callable[[], object]:
    """Baseline: the cheapest page imaginable, 50 enrolment rows read raw."""
    def read() -> object:
        with connection.cursor() as cursor:
            cursor.execute("SELECT id, user_id, \"group\" FROM courses_enrollment "
                           "ORDER BY id LIMIT 50")
            return cursor.fetchall()
    return read


def _csv(client, url: str) -> tuple[float, float, int]:
    """(seconds to the first byte, seconds in all, lines) of a streamed CSV."""
    begin = time.perf_counter()
    response = client.get(url)
    stream = iter(response.streaming_content)
    first = next(stream)
    first_byte = time.perf_counter() - begin
    lines = first.count(b"\n")
    for chunk in stream:
        lines += chunk.count(b"\n")
    return first_byte, time.perf_counter() - begin, lines


def _csv_peak(client, url: str) -> int:
    tracemalloc.start()
    try:
        response = client.get(url)
        for _chunk in response.streaming_content:
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.django_db(transaction=True)
def test_a_class_of_50000(client, course, irene, module_05):
    small = Course.objects.create(slug="small-class", title="Small", module=course.module)
    Enrollment.objects.create(user=irene, course=small, role=Enrollment.Role.INSTRUCTOR)
    print(f"\n{connection.vendor}: seeding {STUDENTS} students x {PER_STUDENT} answers ...")
    seconds = _seed(course, STUDENTS, first=1)
    small_seconds = _seed(small, SMALL, first=STUDENTS + 1)
    total = Submission.objects.filter(course=course).count()
    print(f"seeded {STUDENTS} students / {total} submissions in {seconds:.0f} s "
          f"({total / seconds:.0f} rows/s incl. progress rebuild); {SMALL} students in "
          f"{small_seconds:.0f} s")
    client.force_login(irene)
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    student = Enrollment.objects.filter(course=course, role="student").order_by("user_id")[10]

    def page(name: str, query: str = "", **kwargs: object) -> Callable[[], object]:
        url = reverse(f"dashboard:{name}", kwargs={"course_slug": course.slug, **kwargs}) + query

        def fetch() -> object:
            response = client.get(url)
            assert response.status_code == 200, url
            return response.content
        return fetch

    token = api_key_create(course=course, name="bench", role="lms", created_by=irene).token

    def api(path: str) -> Callable[[], object]:
        def fetch() -> object:
            response = client.get(f"/api/v1/courses/{course.slug}/{path}",
                                  HTTP_AUTHORIZATION=f"Bearer {token}")
            assert response.status_code == 200, path
            return response.content
        return fetch

    count, cheap = _bare_count(course.pk), _bare_page()
    cases = [
        ("overview", page("overview")),
        ("matrix p1 by name", page("matrix")),
        ("matrix by total desc", page("matrix", "?sort=total&desc=1")),
        ("matrix by a part", page("matrix", f"?sort=part-{part.pk}")),
        ("matrix one group p200", page("matrix", "?group=A&page=200")),
        ("matrix search", page("matrix", "?q=student4242")),
        ("statistics", page("statistics")),
        ("statistics one group", page("statistics", "?group=A")),
        ("part detail", page("part", part_id=part.pk)),
        ("part detail one group", page("part", "?group=A", part_id=part.pk)),
        ("misconceptions", page("misconceptions")),
        ("student drill-down", page("student", student_id=student.user_id)),
        ("review queue", page("reviews")),
        ("API gradebook page", api("gradebook/?limit=100&after=0")),
        ("API gradebook since", api("gradebook/?updated_since=2100-01-01T00:00:00Z")),
        ("API submissions keyset", api("submissions/?after=1000000&limit=100")),
        ("API variant fairness", api("variant-fairness/")),
    ]
    print("baselines, timed alternately with each page: 'count' = one bare COUNT/MAX over "
          "the course's submissions; 'page' = 50 enrolment rows read raw")
    print(f"{'page':24} {'p50 ms':>8} {'p99 ms':>8} {'count p50':>10} {'p50/count':>10} "
          f"{'page p50':>9} {'p50/page':>9}")
    for label, fn in cases:
        times, base = paired(fn, count, RUNS)
        _, floor = paired(lambda: None, cheap, 5)
        print(f"{label:24} {p(times, .5) * 1e3:8.1f} {p(times, .99) * 1e3:8.1f} "
              f"{p(base, .5) * 1e3:10.1f} {p(times, .5) / p(base, .5):9.2f}x "
              f"{p(floor, .5) * 1e3:9.2f} {p(times, .5) / p(floor, .5):8.0f}x")

    fairness_queries = {}
    for label, each in (("big", course), ("small", small)):
        with CaptureQueriesContext(connection) as queries:
            parts = variant_fairness(course=each)
        fairness_queries[label] = len(queries)
        print(f"variant fairness ({label}): {len(queries)} queries, "
              f"{sum(len(f.variants) for f in parts)} variants, "
              f"{sum(len(f.flagged) for f in parts)} flagged")
    assert fairness_queries["big"] == fairness_queries["small"]

    for label, each in (("big", course), ("small", small)):
        url = reverse("dashboard:gradebook-csv", kwargs={"course_slug": each.slug})
        first_byte, seconds, lines = _csv(client, url)
        peak = _csv_peak(client, url)
        print(f"gradebook CSV ({label}, {lines - 1} students): first byte "
              f"{first_byte * 1e3:.0f} ms, whole file {seconds:.2f} s = "
              f"{(lines - 1) / seconds:.0f} rows/s, peak Python memory {peak / 1e6:.1f} MB")

    Exercise.objects.filter(pk=part.exercise_id).update(max_attempts=0)
    part = Part.objects.select_related("exercise").get(pk=part.pk)
    few, many = Enrollment.objects.filter(course=small, role="student").order_by("user_id")[:2]
    Submission.objects.filter(course=small, student_id__in=[few.user_id, many.user_id],
                              part=part).delete()
    Submission.objects.bulk_create([
        Submission(student_id=many.user_id, course=small, part=part, raw_answer=f"0.{i:04d}",
                   outcome="incorrect", score=0.0, counts_as_attempt=True, answer_key=f"k{i}")
        for i in range(200)] + [
        Submission(student_id=few.user_id, course=small, part=part, raw_answer="0.0001",
                   outcome="incorrect", score=0.0, counts_as_attempt=True, answer_key="k")])
    progress_sync(small)
    from django.contrib.auth import get_user_model
    users = get_user_model().objects.in_bulk([few.user_id, many.user_id])
    answers = iter(range(10_000, 20_000))

    def submit(user_id: int) -> Callable[[], object]:
        def run() -> object:
            return submission_create(student=users[user_id], course=small, part=part,
                                     raw_answer=f"0.{next(answers)}")
        return run

    after_many, after_one = paired(submit(many.user_id), submit(few.user_id), 30)
    print(f"submit after 1 attempt: p50 {p(after_one, .5) * 1e3:.1f} ms; after 200: p50 "
          f"{p(after_many, .5) * 1e3:.1f} ms; ratio {p(after_many, .5) / p(after_one, .5):.2f}x")
