"""Writes for labs: request a run, execute it exactly once on a worker, sweep lost runs.

The database, not the broker, is the source of truth. A run is claimed (labs/claims.py) by a
conditional UPDATE that bumps `attempts`; that number is the fencing token, so only the claim
still current can write the result, and a redelivered task for a finished run does nothing.
"""

import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any, Literal

import numpy as np
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from core.metrics import observe_lab_run_execute, observe_lab_run_sweep
from core.queueing import task_send, task_send_on_commit
from courses.access import is_course_staff
from courses.models import Course, Lab
from courses.plain_maths import plain_maths
from labs.answer_guard import unsolved_exercise_computed
from labs.events import lab_run_finished_record
from labs.models import LabRun
from labs.selectors import predictions_due
from labs.simulations import SIMULATIONS, validate_params
from labs.sql import RunClaim, run_claim

logger = logging.getLogger(__name__)

#: A running run whose worker has not reported for this long is presumed lost.
STALE_AFTER = timedelta(seconds=getattr(settings, "LAB_RUN_STALE_SECONDS", 30))
#: Progress is written at most this often (seconds), so a fast simulation is not slowed by it.
PROGRESS_INTERVAL = 0.5
FINISHED = (LabRun.Status.SUCCEEDED, LabRun.Status.FAILED)
RUN_TASK = "labs.tasks.lab_run_task"
#: Bump when plots change, so cached renders of the old look are not served.
PLOT_VERSION = 4
PLOT_CACHE_SECONDS = 7 * 24 * 3600
#: What executing a run did (see lab_run_execute).
ExecuteOutcome = Literal["succeeded", "failed", "finished-already", "busy", "superseded", "missing"]


class LabRunRefused(Exception):
    """The run may not be made (nothing was stored): it would show the answer to a prediction
    the student has not made yet (``code`` "predict_first"), or the key of an exercise they have
    not solved, for their own variant (``code`` "unsolved_key")."""

    def __init__(self, message: str, code: str = "predict_first") -> None:
        super().__init__(message)
        self.code = code


class LabParamsInvalid(Exception):
    """The parameters do not fit the lab's schema; nothing was stored or queued."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{name}: {message}" for name, message in errors.items()))


def params_key(params: dict[str, Any]) -> str:
    """A stable fingerprint of validated parameters, used to reuse identical finished runs."""
    canonical = json.dumps(params, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def lab_run_request(
    *,
    lab: Lab,
    course: Course,
    requester: User,
    params: dict[str, Any],
    seed: int | None = None,
    submission: Any = None,
    on_stored: Callable[[LabRun], None] | None = None,
    requester_is_staff: bool | None = None,
) -> LabRun:
    """Validate `params`, store a run and queue it for a worker once the transaction commits.

    Raises LabParamsInvalid (storing nothing) for bad parameters, and LabRunRefused when a
    student asks for a lab that grades a prediction they have not made yet ("predict first";
    staff, and the run that grades the prediction itself, are not held back), or that would
    print a number answering a part the student has not solved, within that part's tolerance,
    for their own variant (see `labs.answer_guard`). When a finished run of the
    same lab with the same parameters and seed exists, its result is reused: the new run is
    stored as succeeded at once and nothing is queued. Without a seed, a random one is drawn
    (and stored, so the run can be reproduced). `on_stored(run)` runs inside the transaction
    that stores the run. `requester_is_staff` (whether the requester is a TA or an
    instructor of the course), when the caller has read the enrolment, saves that read.
    """
    clean, errors = validate_params(lab.simulation, params, lab.param_schema or None)
    if errors:  # messages name parameters by label, whose maths is spelt out for the API too
        raise LabParamsInvalid({name: plain_maths(message) for name, message in errors.items()})
    if requester_is_staff is None and submission is None:
        requester_is_staff = _is_staff(requester=requester, course=course)
    if submission is None and not requester_is_staff:
        _refuse_before_predictions(lab=lab, course=course, requester=requester)
        _refuse_unsolved_keys(lab=lab, course=course, requester=requester, params=clean)
    seed = secrets.randbelow(2**31) if seed is None else int(seed)
    key = params_key(clean)
    with transaction.atomic():
        finished = (
            LabRun.objects.filter(lab=lab, params_key=key, seed=seed,
                                  status=LabRun.Status.SUCCEEDED)
            .order_by("finished_at").first()
        )
        # A reused result is stored with the run, in the one INSERT.
        now = timezone.now()
        reused = {} if finished is None else {
            "status": LabRun.Status.SUCCEEDED, "progress": 1.0, "result": finished.result,
            "compute_ms": finished.compute_ms, "reused_from": finished,
            "started_at": now, "finished_at": now,
        }
        run = LabRun.objects.create(
            lab=lab, course=course, requester=requester, submission=submission, params=clean,
            params_key=key, seed=seed, queued_at=now, **reused,
        )
        if on_stored is not None:
            on_stored(run)
        if finished is not None:
            lab_run_finished_record(run_id=run.pk, course_id=course.pk)
        else:
            task_send_on_commit(RUN_TASK, run.pk)
    return run


def _refuse_before_predictions(*, lab: Lab, course: Course, requester: User) -> None:
    due = predictions_due(lab=lab, course=course, student_id=requester.pk)
    if due:
        titles = "; ".join(exercise.title for exercise in due)
        raise LabRunRefused(f"Predict first: this lab shows the answer to {titles}. Make and "
                            "lock in your prediction there before you run it.")


def _refuse_unsolved_keys(*, lab: Lab, course: Course, requester: User,
                          params: dict[str, Any]) -> None:
    exercise = unsolved_exercise_computed(lab=lab, course=course, student=requester,
                                          params=params)
    if exercise is not None:
        raise LabRunRefused(
            f"This run would print the answer to your {exercise.title}, which you have not "
            "solved yet (within the tolerance its answer is marked with). Work it out there "
            "first, or change the numbers to explore.", code="unsolved_key")


def _is_staff(*, requester: User, course: Course) -> bool:
    return is_course_staff(user=requester, course=course)


def _enqueue(run_id: int) -> None:
    task_send(RUN_TASK, run_id)


def _progress_writer(run_id: int, token: int) -> Callable[[float], None]:
    last = [time.monotonic()]  # the claim just wrote a heartbeat

    def report(fraction: float) -> None:
        now = time.monotonic()
        if now - last[0] < PROGRESS_INTERVAL:
            return
        last[0] = now
        LabRun.objects.filter(pk=run_id, attempts=token, status=LabRun.Status.RUNNING).update(
            progress=max(0.0, min(1.0, float(fraction))), heartbeat_at=timezone.now()
        )

    return report


@observe_lab_run_execute
def lab_run_execute(*, run_id: int) -> ExecuteOutcome:
    """Run the simulation of a claimed run and store its result; safe to call any number of times.

    Returns what happened: "succeeded", "failed", "finished-already" (a redelivered task),
    "busy" (another worker holds a live claim) or "superseded" (our claim went stale and
    another worker re-ran it, so our result was discarded). Parameters outside the simulation's
    own limits (whatever the lab's content said) and simulation errors mark the run failed with
    a message; database errors propagate so the task can retry.
    """
    claim = run_claim(run_id, now=timezone.now(), stale_after=STALE_AFTER)
    if claim is None:
        status = LabRun.objects.filter(pk=run_id).values_list("status", flat=True).first()
        if status is None:
            return "missing"
        return "finished-already" if status in FINISHED else "busy"

    simulation = SIMULATIONS[claim.simulation]
    # The simulation's own limits hold whatever the lab's content or a stored row says.
    params, errors = validate_params(claim.simulation, claim.params)
    if errors:
        logger.warning("lab run %s refused: parameters outside the simulation's limits: %s",
                       run_id, errors)
        problems = "; ".join(errors.values())
        return _finish(run_id, claim, status=LabRun.Status.FAILED,
                       error=f"These parameters are outside what the simulation allows: {problems}")
    started = time.perf_counter()
    try:
        result = simulation.run(
            params, rng=np.random.default_rng(claim.seed),
            progress=_progress_writer(run_id, claim.token),
        )
    except Exception as exc:  # a broken simulation fails this run, never the worker
        if exc.__class__.__name__ == "SoftTimeLimitExceeded":
            message = "The simulation took too long and was stopped. Try smaller parameters."
        else:
            logger.exception("lab run %s failed", run_id)
            message = f"The simulation failed: {exc}"
        return _finish(run_id, claim, status=LabRun.Status.FAILED, error=message)
    compute_ms = (time.perf_counter() - started) * 1000
    return _finish(run_id, claim, status=LabRun.Status.SUCCEEDED, result=result,
                   compute_ms=compute_ms)


def _finish(run_id: int, claim: RunClaim, *,
            status: Literal[LabRun.Status.SUCCEEDED, LabRun.Status.FAILED],
            **values: Any) -> ExecuteOutcome:
    with transaction.atomic():
        updated = LabRun.objects.filter(
            pk=run_id, attempts=claim.token, status=LabRun.Status.RUNNING
        ).update(status=status, finished_at=timezone.now(), progress=1.0, **values)
        if not updated:
            return "superseded"
        # The webhook rows commit with the result, or not at all.
        lab_run_finished_record(run_id=run_id, course_id=claim.course_id)
    return "succeeded" if status == LabRun.Status.SUCCEEDED else "failed"


def lab_run_plot(*, run: LabRun) -> str:
    """The run's SVG plot ("" until it has succeeded): rendered from its stored result on the
    first request, then served from Django's cache (a render costs tens of milliseconds; a
    succeeded run's result never changes). Reads the run only: nothing is written to the
    database, so a page view stays a read."""
    if run.status != LabRun.Status.SUCCEEDED or run.result is None:
        return ""
    key = f"lab-plot:{PLOT_VERSION}:{run.uuid}"
    svg = cache.get(key)
    if svg is None:
        from labs.plots import plot_for  # matplotlib (seconds): only where a plot is drawn

        svg = plot_for(run.lab.simulation, run.result)
        cache.set(key, svg, timeout=PLOT_CACHE_SECONDS)
    return str(svg)


@observe_lab_run_sweep
def lab_run_sweep(*, stale_after: timedelta = STALE_AFTER, queued_after: timedelta = STALE_AFTER,
                  enqueue: Callable[[int], None] | None = None) -> list[int]:
    """Re-queue runs a broker or worker lost: running with no heartbeat, or queued too long.

    Returns the ids re-queued. Safe with redelivery: a duplicate task of a run finds it
    finished or claimed and does nothing.
    """
    now = timezone.now()
    lost = LabRun.objects.filter(
        Q(status=LabRun.Status.RUNNING, heartbeat_at__lt=now - stale_after)
        | Q(status=LabRun.Status.QUEUED, queued_at__lt=now - queued_after)
    ).values_list("pk", flat=True)
    ids = list(lost)
    for run_id in ids:
        (enqueue or _enqueue)(run_id)
    if ids:
        logger.warning("re-queued %d lost lab run(s): %s", len(ids), ids)
    return ids
