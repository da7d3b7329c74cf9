"""Many predictions graded against one finished run at once: the lecture hall's reveal.

What `prediction_run_request` followed by `predictions_grade_for_run` (labs/predictions.py)
does for one prediction, done for a whole room in a bounded number of queries: each
prediction gets its own run reusing the class run's result, then its verdict through the
one writer (`grading.verdicts.verdicts_record_many`). An answer given by many students is
graded once per variant: in the numbers the room was asked (a shared variant), or in each
student's own.
"""

import json
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from events.outbox import events_record_many
from grading.models import Submission
from grading.variant_assignment import default_variant_students, variant_of
from grading.verdicts import NewVerdict, Why, verdicts_record_many
from labs.events import lab_run_finished_event
from labs.models import LabRun
from labs.predictions import measured_value, prediction_verdict


def predictions_grade_with_run(*, run: LabRun, submission_ids: Sequence[int],
                               params: dict[str, Any] | None = None) -> list[Submission]:
    """Grade the pending predictions `submission_ids` (of one course and part) against the
    succeeded run `run` in one transaction: each gets a run of its own that reuses `run`'s
    result (stored as succeeded, "lab_run.finished" recorded), then its verdict, in the
    variant `params` when given (the numbers every student was asked in: a room's shared
    ones), else in each student's own variant, through the one verdict writer. Predictions
    no longer pending are left alone (a redelivered reveal changes nothing). Returns those
    graded.

    Raises ValueError unless `run` has succeeded (a failed class run is retried per
    prediction by `prediction_run_request`)."""
    if run.status != LabRun.Status.SUCCEEDED or run.result is None:
        raise ValueError(f"run {run.pk} has no result to grade against")
    with transaction.atomic():
        submissions = list(
            Submission.objects.select_for_update(of=("self",))
            .select_related("part__exercise", "course")
            .filter(pk__in=list(submission_ids), outcome=Submission.Outcome.PENDING)
            .order_by("pk"))
        if not submissions:
            return []
        now = timezone.now()
        runs = LabRun.objects.bulk_create([
            LabRun(lab_id=run.lab_id, course_id=s.course_id, requester_id=s.student_id,
                   submission=s, params=run.params, params_key=run.params_key, seed=run.seed,
                   status=LabRun.Status.SUCCEEDED, progress=1.0, result=run.result,
                   compute_ms=run.compute_ms, reused_from=run, started_at=now, finished_at=now)
            for s in submissions])
        events_record_many([lab_run_finished_event(run_id=r.pk, course_id=r.course_id)
                            for r in runs])
        verdicts = _verdicts(submissions, run.result, params)
        return verdicts_record_many(verdicts=verdicts, why=Why.LAB,
                                    only_if_outcome=Submission.Outcome.PENDING)


def _verdicts(submissions: list[Submission], result: dict[str, Any],
              shared: dict[str, Any] | None) -> list[tuple[Submission, NewVerdict]]:
    """Each prediction's verdict in the `shared` variant's parameters, else in its student's
    own variant; the same answer in the same variant is graded once."""
    part = submissions[0].part
    exercise, spec = part.exercise, part.spec
    measured = measured_value(result, spec["measure"])
    course = submissions[0].course
    defaults = default_variant_students(course=course, student_ids=[
        s.student_id for s in submissions]) if shared is None else set()
    graded: dict[tuple[str, str], NewVerdict] = {}
    verdicts = []
    for submission in submissions:
        params = shared if shared is not None else variant_of(
            course=course, exercise=exercise, student_id=submission.student_id,
            default=submission.student_id in defaults).params
        key = (submission.raw_answer, json.dumps(params, sort_keys=True, default=str))
        if key not in graded:
            graded[key] = prediction_verdict(spec=spec, raw_answer=submission.raw_answer,
                                             measured=measured, params=params,
                                             submission_id=submission.pk)
        verdicts.append((submission, graded[key]))
    return verdicts
