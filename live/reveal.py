"""The reveal: after Run, the lab runs on a worker and every locked prediction of the room
is graded against what it measured: against the class's run, a hundred at a time in one
transaction (labs/prediction_batches.py), or each against its own variant's run through
labs/predictions.py; then each phone is sent its own verdict.

Called by the Celery task `live.tasks.live_reveal_task` with the session id; safe to run
again after a crash (graded predictions are skipped, the final update is conditional).
"""

import logging
import time
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from courses.rendering import render_markdown
from grading.lab_graded import lab_graded
from grading.models import Submission
from grading.overrides import grade_override_create
from labs.models import LabRun
from labs.prediction_batches import predictions_grade_with_run
from labs.predictions import (
    lab_run_execute_and_grade,
    measured_value,
    prediction_run_request,
    predictions_grade_for_run,
)
from live.distribution import answer_text, choice_options, live_verdict_counts
from live.models import LiveAnswer, LiveSession, LiveSettings
from live.push import live_changed, live_verdicts_send
from live.variants import live_variant

logger = logging.getLogger(__name__)

#: Verdicts are sent to the phones in batches of this many, as they are graded.
BATCH = 25
#: Predictions graded against the class's run in one transaction (labs/prediction_batches.py).
GRADED_TOGETHER = 100
#: How long the reveal waits for the per-student runs (own variants) other workers execute.
OWN_RUNS_WAIT_SECONDS = 60.0


class RevealBusy(Exception):
    """The class's run is being executed by another worker; try again shortly."""


def verdict_payload(submission: Submission, measured: str,
                    options: list[tuple[str, str]]) -> dict[str, Any]:
    """What a phone shows of its own verdict (the student's own answer, nothing of others):
    the feedback also as sanitised HTML with its maths as MathML (``feedback_html``, as the
    pages render it), the answer also as its options' texts (``answer_text``)."""
    return {"outcome": submission.outcome, "label": str(submission.get_outcome_display()),
            "score": submission.score, "feedback": submission.feedback,
            "feedback_html": render_markdown(submission.feedback, escape_html=True)
            if submission.feedback else "",
            "measured": measured, "answer": submission.raw_answer,
            "answer_text": answer_text(submission.raw_answer, options)}


def shown_measurement(spec: dict[str, Any], run: LabRun | None) -> str:
    """What the lab measured, as the projector shows it (a choice's option text)."""
    if run is None or run.result is None:
        return ""
    value = measured_value(run.result, spec["measure"])
    options = {key.strip().lower(): text for key, text in choice_options(spec)}
    if options:
        return options.get(str(value).strip().lower(), str(value))
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def live_reveal(*, session_id: int) -> int:
    """Run the session's lab (class variant) and grade its held predictions; send verdicts;
    mark the session revealed. Returns how many answers were graded now. Raises RevealBusy
    while another worker executes the class's run."""
    session = LiveSession.objects.select_related("part__exercise", "course", "lab_run").get(pk=session_id)
    if session.state == LiveSession.State.REVEALED:
        return 0
    part = session.part
    spec = part.spec
    measured = ""
    graded = 0
    if lab_graded(spec):
        class_run = None
        if session.variant == LiveSession.Variant.CLASS and session.lab_run_id is not None:
            outcome = lab_run_execute_and_grade(run_id=session.lab_run_id)
            if outcome == "busy":
                raise RevealBusy(session_id)
            class_run = LabRun.objects.get(pk=session.lab_run_id)
            measured = shown_measurement(spec, class_run)
            LiveSession.objects.filter(pk=session.pk).update(measured=measured)
        graded = _grade_held(session, class_run, measured)
    else:
        _send_verdicts(session, measured, LiveAnswer.objects.filter(session=session, valid=True)
                       .values_list("submission_id", flat=True))
    _participation(session)
    with transaction.atomic():
        session.refresh_from_db()
        after = {"verdicts": live_verdict_counts(session=session)}
        updated = LiveSession.objects.filter(pk=session.pk, state=LiveSession.State.RUNNING).update(
            state=LiveSession.State.REVEALED, revealed_at=timezone.now(), distribution_after=after,
            version=F("version") + 1)
        if updated:
            live_changed(session_id=session.pk, version=session.version + 1,
                         state=LiveSession.State.REVEALED, phones=True)
    return graded


def _held(session: LiveSession) -> list[int]:
    return list(LiveAnswer.objects.filter(
        session=session, valid=True, submission__outcome=Submission.Outcome.PENDING)
        .order_by("pk").values_list("submission_id", flat=True))


def _grade_held(session: LiveSession, class_run: LabRun | None, measured: str) -> int:
    """Give every held prediction its run and grade it, in the numbers its phone asked with
    (`live.variants.live_variant`: the class's when the room shares one run, else the
    student's own); send verdicts batch by batch."""
    ids = _held(session)
    if class_run is not None and class_run.status == LabRun.Status.SUCCEEDED:
        # Everyone against the class's run, in the class's numbers: graded together, a batch
        # per transaction.
        asked = live_variant(session=session, student=None).params
        for start in range(0, len(ids), GRADED_TOGETHER):
            graded = predictions_grade_with_run(
                run=class_run, submission_ids=ids[start:start + GRADED_TOGETHER], params=asked)
            _graded_send(session, measured, graded)
        return len(ids)
    waiting: list[int] = []
    done: list[int] = []
    for submission in (Submission.objects.select_related("part__exercise", "course", "student")
                       .filter(pk__in=ids).order_by("pk").iterator(chunk_size=200)):
        asked = live_variant(session=session, student=submission.student).params
        if class_run is not None:
            # The class's run, finished: the prediction's own run reuses its result at once.
            run = prediction_run_request(submission, asked, seed=class_run.seed,
                                         variant_params=asked)
        else:
            run = prediction_run_request(submission, asked, variant_params=asked)
            lab_run_execute_and_grade(run_id=run.pk)  # here, unless another worker took it
        if run.is_finished:
            predictions_grade_for_run(run_id=run.pk, params=asked)
        done.append(submission.pk)
        if len(done) >= BATCH:
            waiting += _send_verdicts(session, measured, done)
            done = []
    waiting += _send_verdicts(session, measured, done)
    deadline = time.monotonic() + OWN_RUNS_WAIT_SECONDS
    while waiting and time.monotonic() < deadline:  # runs other workers took: wait for them
        time.sleep(0.2)
        waiting = _send_verdicts(session, measured, waiting)
    return len(ids)


def _send_verdicts(session: LiveSession, measured: str, submission_ids: list[int] | Any) -> list[int]:
    """Send the verdicts of those graded; return the ids still pending."""
    submissions = list(Submission.objects.filter(pk__in=list(submission_ids)))
    _graded_send(session, measured, [s for s in submissions
                                       if s.outcome != Submission.Outcome.PENDING])
    return [s.pk for s in submissions if s.outcome == Submission.Outcome.PENDING]


def _graded_send(session: LiveSession, measured: str, graded: list[Submission]) -> None:
    """Send each graded submission's verdict to its student's phone, BATCH at a time."""
    options = choice_options(session.part.spec)
    for start in range(0, len(graded), BATCH):
        live_verdicts_send(session_id=session.pk, verdicts=[
            (s.student_id, verdict_payload(s, measured, options))
            for s in graded[start:start + BATCH]])


def _participation(session: LiveSession) -> None:
    """Participation-only courses: full credit on the part for every locked-in answer (an
    audited override, as staff would record it)."""
    settings = LiveSettings.objects.filter(course=session.course).first()
    if settings is None or settings.scoring != LiveSettings.Scoring.PARTICIPATION:
        return
    students = (LiveAnswer.objects.filter(session=session, valid=True)
                .values_list("student_id", flat=True))
    for student_id in students:
        grade_override_create(course=session.course, student_id=student_id, part_id=session.part_id,
                              points=session.part.points, by=session.opened_by,
                              reason=f"Live session {session.code}: participation credit")
