"""The lecture hall's reveal: a room's held predictions graded against the class's run,
together (labs/prediction_batches.py) against one by one (the path before, still the one of
the own-variant mode), in the same run.

Run on demand (PostgreSQL as in production, or SQLite by default):
  DATABASE_URL=postgres://postgres@127.0.0.1:5432/gs_bench \
  RUN_BENCHMARKS=1 pytest tests/benchmarks/test_reveal_speed.py -s
`REVEAL_STUDENTS` (500) sets the room. Two rooms of that many students hold the same mix
of answers; one is graded together, the other one prediction at a time (its own run
reusing the class run's result, then its verdict), each timed with its queries counted.
Prints seconds, predictions per second and queries for both and the ratio. Target (issue
27): a room of 500 graded within 5 s of Run. Asserts no time (machines are shared).
"""

import os
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from courses.models import Enrollment, Part
from grading.models import Submission
from labs.models import LabRun
from labs.prediction_batches import predictions_grade_with_run
from labs.predictions import lab_run_execute_and_grade, prediction_run_request, predictions_grade_for_run
from live.access import LiveStaff
from live.sessions import live_session_open, live_session_run
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.benchmark

STUDENTS = int(os.environ.get("REVEAL_STUDENTS", "500"))
ANSWERS = ["queen", "queen", "woman", "far", "king", "queen", "woman", "queen"]


def _room(course, part, prefix: str) -> list[Submission]:
    held = []
    for i in range(STUDENTS):
        user = UserFactory.create(username=f"{prefix}{i}")
        EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
        held.append(Submission(student=user, course=course, part=part,
                               raw_answer=ANSWERS[i % len(ANSWERS)],
                               outcome=Submission.Outcome.PENDING, counts_as_attempt=True))
    return Submission.objects.bulk_create(held)


def test_reveal_together_against_one_by_one(transactional_db, course, irene) -> None:
    part = Part.objects.select_related("exercise").get(exercise__slug="predict-analogy",
                                                       key="endpoint")
    staff = LiveStaff(course=course, user=irene, role=Enrollment.Role.INSTRUCTOR)
    session = live_session_run(session=live_session_open(staff=staff, part_id=part.pk,
                                                         variant="class"), staff=staff)
    assert session.lab_run_id is not None
    lab_run_execute_and_grade(run_id=session.lab_run_id)
    run = LabRun.objects.get(pk=session.lab_run_id)
    together, alone = _room(course, part, "t"), _room(course, part, "a")

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        ids = [s.pk for s in together]
        for start in range(0, len(ids), 100):
            predictions_grade_with_run(run=run, submission_ids=ids[start:start + 100])
        together_s = time.perf_counter() - started
    together_q = len(queries.captured_queries)

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        for submission in Submission.objects.select_related("part__exercise", "course", "student") \
                .filter(pk__in=[s.pk for s in alone]).order_by("pk"):
            one = prediction_run_request(submission, {}, seed=run.seed)
            predictions_grade_for_run(run_id=one.pk)
        alone_s = time.perf_counter() - started
    alone_q = len(queries.captured_queries)

    graded = Submission.objects.filter(pk__in=[s.pk for s in together + alone],
                                       outcome__in=Submission.GRADED_OUTCOMES).count()
    print(f"\nreveal of {STUDENTS} predictions on {connection.vendor}")
    print(f"  together (100 per transaction): {together_s:.2f} s, "
          f"{STUDENTS / together_s:.0f} predictions/s, {together_q} queries")
    print(f"  one by one (before):            {alone_s:.2f} s, "
          f"{STUDENTS / alone_s:.0f} predictions/s, {alone_q} queries")
    print(f"  ratio: {alone_s / together_s:.1f}x faster (target: {STUDENTS} within 5 s)")
    assert graded == 2 * STUDENTS
