"""Predictions graded against a lab, the whole path in one place.

1. grading stores the prediction (locked: it counts as an attempt) and, because the part
   is lab-graded (grading/lab_graded.py), calls `prediction_submit`, registered by
   LabsConfig.ready(), which requests a lab run tied to the submission;
2. a worker runs it: `lab_run_execute_and_grade` (the Celery task's one service) executes
   the run and then grades the predictions waiting for it (`predictions_grade_for_run`),
   against what the lab measured;
3. a crash between those steps is finished by labs/recovery.py.

A part opts in with `lab = "<lab slug>"` and `measure = "<result key>"` in its spec;
`lab_params` may map lab parameters to the exercise's variant parameters (by name).
"""

import logging
from typing import Any

from django.db import transaction

from courses.models import Lab
from grading.checkers import grade
from grading.models import Submission
from grading.variant_assignment import variant_for
from grading.verdicts import ONE_MORE_FAILURE, NewVerdict, Why, verdict_record
from labs.models import LabRun
from labs.prediction_holds import prediction_held, prediction_numbers
from labs.services import ExecuteOutcome, lab_run_execute, lab_run_request

logger = logging.getLogger(__name__)

#: A prediction whose lab run fails is run again (labs/recovery.py) up to this many runs.
MAX_PREDICTION_RUNS = 3


def measured_value(result: dict[str, Any], measure: str) -> Any:
    """The value at dotted path `measure` in a lab result (e.g. "nearest" or "norm_at_40.0")."""
    value: Any = result
    for step in measure.split("."):
        value = value[int(step)] if isinstance(value, list) else value[step]
    return value


def spec_against_measurement(spec: dict[str, Any], measured: Any) -> dict[str, Any]:
    """The part's spec with its reference replaced by the measured value."""
    graded = {k: v for k, v in spec.items() if k not in ("lab", "measure", "lab_params")}
    if spec["type"] == "choice":
        graded["correct"] = [str(measured)]
    elif spec["type"] == "vector":
        graded["reference"] = [repr(float(x)) for x in measured]
    else:
        graded["reference"] = repr(measured) if isinstance(measured, float) else str(measured)
    return graded


def prediction_submit(submission: Submission, params: dict[str, Any]) -> Submission:
    """Request the lab run that will grade the stored prediction `submission`, unless a
    registered hold keeps it for later (see `prediction_hold_register`)."""
    if prediction_held(submission):
        return submission
    prediction_run_request(submission, params, variant_params=params)
    return submission


def prediction_lab(submission: Submission) -> Lab:
    """The lab that grades the prediction `submission` (its part's `lab`)."""
    return Lab.objects.active().get(module_id=submission.part.exercise.module_id,
                                    slug=submission.part.spec["lab"])


def prediction_lab_params(spec: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """The lab parameters a prediction part takes from a variant's `params` (`lab_params`)."""
    return {name: params[source] for name, source in spec.get("lab_params", {}).items()}


def prediction_run_request(submission: Submission, params: dict[str, Any], *,
                           seed: int | None = None,
                           variant_params: dict[str, Any] | None = None) -> LabRun:
    """Request the run grading the stored prediction `submission` with the lab parameters
    of variant `params` and `seed` (default: the student's variant seed). When an identical
    finished run is reused, the prediction is graded once the transaction commits, with
    `variant_params` when given (the student's variant's, as the answer path has drawn it),
    else the variant read again."""
    run = lab_run_request(
        lab=prediction_lab(submission), course=submission.course, requester=submission.student,
        params=prediction_lab_params(submission.part.spec, params),
        seed=(submission.variant_seed or 0) if seed is None else seed, submission=submission,
    )
    if run.is_finished:  # graded from what is in hand: the run and its submission
        transaction.on_commit(lambda: predictions_grade_for_run(run_id=run.pk, run=run,
                                                                params=variant_params))
    return run


def lab_run_execute_and_grade(*, run_id: int) -> ExecuteOutcome:
    """Execute the run (see `lab_run_execute`), then grade the prediction waiting for it;
    returns what the execution did. Safe to call any number of times."""
    outcome = lab_run_execute(run_id=run_id)
    if outcome in ("succeeded", "failed", "finished-already"):
        predictions_grade_for_run(run_id=run_id)  # a no-op unless a prediction waits
    return outcome


def predictions_grade_for_run(*, run_id: int, run: LabRun | None = None,
                              params: dict[str, Any] | None = None) -> int:
    """Grade the pending prediction attached to a finished run; returns how many were graded.

    `run` (with its submission) and `params` (the variant parameters it was asked in: by
    default `prediction_numbers`, else the student's own variant's) spare the reads when the
    caller has just stored them: the verdict is still written only while the
    stored prediction is pending (`only_if_outcome`), so a stale copy changes nothing."""
    if run is None:
        run = LabRun.objects.select_related("submission__part__exercise").filter(pk=run_id).first()
    if run is None or run.submission is None or not run.is_finished:
        return 0
    submission = run.submission
    if submission.outcome != Submission.Outcome.PENDING:
        return 0
    spec = submission.part.spec
    if run.status == LabRun.Status.FAILED or run.result is None:
        if submission.lab_runs.count() < MAX_PREDICTION_RUNS:
            feedback = ("Your prediction is saved, but the lab run failed; the lab will run "
                        "again in a few minutes and your prediction will be graded then.")
        else:
            feedback = ("Your prediction is saved, but the lab failed every time it ran; your "
                        "teacher can see this and will grade it.")
        _verdict_stored(submission, NewVerdict(outcome=Submission.Outcome.ERROR, score=None,
                                               feedback=feedback, grading_failures=0))
        return 1
    measured = measured_value(run.result, spec["measure"])
    if params is None:  # the numbers it was asked in: a live room's, else the student's own
        params = prediction_numbers(submission)
    if params is None:
        params = variant_for(student=submission.student, course=submission.course,
                             exercise=submission.part.exercise).params
    _verdict_stored(submission, prediction_verdict(
        spec=spec, raw_answer=submission.raw_answer, measured=measured, params=params,
        submission_id=submission.pk))
    return 1


def prediction_verdict(*, spec: dict[str, Any], raw_answer: str, measured: Any,
                       params: dict[str, Any], submission_id: int | None = None) -> NewVerdict:
    """The verdict of prediction `raw_answer` on a part with `spec`, against what the lab
    `measured`, in a variant with `params`: the grade and feedback saying both values. A
    grader crash gives an "error" verdict (one more failure; the recovery sweep grades it
    again), logged with `submission_id`."""
    try:
        result = grade(raw_answer, spec_against_measurement(spec, measured), params)
    except Exception:  # a grader crash keeps the prediction; the recovery sweep grades it again
        logger.exception("grader failed on prediction %s", submission_id)
        return NewVerdict(outcome=Submission.Outcome.ERROR, score=None, misconception="",
                          feedback="Something went wrong while grading your prediction. It is "
                                   "saved and will be graded again.",
                          grading_failures=ONE_MORE_FAILURE)
    predicted = _shown_answer(spec, raw_answer)
    shown = _shown_answer(spec, measured)
    feedback = f"You predicted: {predicted}. The lab measured: {shown}. "
    if result.misconception:  # the feedback written for this very mistake
        feedback += result.feedback
    else:
        feedback += spec.get("feedback_correct" if result.outcome == "correct" else
                             "feedback_incorrect", "") or result.feedback
    return NewVerdict(outcome=result.outcome, score=result.score, feedback=feedback.strip(),
                      misconception=result.misconception or "", grading_failures=0)


def _display(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def _shown_answer(spec: dict[str, Any], value: Any) -> str:
    """A prediction or a measurement as the student read it: a choice option's text (the
    page showed the text, not its key: "Near queen", not "queen"), else the value."""
    options = {str(o.get("key", "")).strip().lower(): str(o.get("text", ""))
               for o in spec.get("options") or [] if isinstance(o, dict)}
    if not options:
        return _display(value).strip() if not isinstance(value, str) else value.strip()
    keys = [k.strip().lower() for k in str(value).split(",") if k.strip()]
    return "; ".join(options.get(key, key) for key in keys)


def _verdict_stored(submission: Submission, verdict: NewVerdict) -> None:
    """Store the lab's `verdict` on the prediction through the one writer, only while it is
    still pending (a redelivered task or a second sweep changes nothing); the writer moves
    the progress row by difference when the prediction is the student's latest answer to
    the part, else re-aggregates it."""
    with transaction.atomic():
        verdict_record(submission=submission, why=Why.LAB, verdict=verdict,
                       only_if_outcome=Submission.Outcome.PENDING)
