"""Writes for live sessions, by course staff: open a question for the room, close and reopen
answering, show or hide the distribution, and Run (the reveal, see live/reveal.py)."""

from typing import Literal

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from core.queueing import task_send_on_commit
from courses.models import Lab, Part
from courses.selectors import course_exercises
from grading.lab_graded import lab_graded
from grading.variant_assignment import default_variant
from labs.predictions import prediction_lab_params
from labs.services import lab_run_request
from live.access import LiveStaff
from live.codes import new_code
from live.distribution import live_distribution
from live.models import LiveSession
from live.push import live_changed

REVEAL_TASK = "live.tasks.live_reveal_task"
Action = Literal["close", "reopen", "show", "hide"]


class LiveActionRefused(Exception):
    """The action does not fit the session's state (nothing was changed)."""


def course_parts(*, staff: LiveStaff) -> list[Part]:
    """Every active part of the course, in module order (predictions first in their own
    exercises' order), each with its exercise: what may be opened for the room."""
    parts = [part for exercise in course_exercises(course=staff.course)
             for part in exercise.parts.all()]
    return sorted(parts, key=lambda p: (not lab_graded(p.spec),))


def live_session_open(*, staff: LiveStaff, part_id: int, variant: str) -> LiveSession:
    """Open part `part_id` of the course for the room, answering open, with a new join code.

    Raises LiveActionRefused for a part not in the course or an unknown variant mode."""
    if variant not in LiveSession.Variant.values:
        raise LiveActionRefused("Choose the class's variant or each student's own.")
    part = next((p for p in course_parts(staff=staff) if p.pk == part_id), None)
    if part is None:
        raise LiveActionRefused("That question is not part of this course.")
    for _ in range(5):
        try:
            with transaction.atomic(durable=True):
                session = LiveSession.objects.create(
                    course=staff.course, part=part, opened_by=staff.user, code=new_code(),
                    variant=variant if lab_graded(part.spec) else LiveSession.Variant.OWN)
                return session
        except IntegrityError:  # the code was taken: draw another
            continue
    raise LiveActionRefused("Could not draw a free join code; try again.")


def live_session_control(*, session: LiveSession, action: Action) -> LiveSession:
    """Close or reopen answering, show or hide the distribution on the projector.

    Raises LiveActionRefused once the lab has run (a revealed session is kept as it was)."""
    with transaction.atomic(durable=True):
        current = LiveSession.objects.select_for_update().get(pk=session.pk)
        if current.state not in (LiveSession.State.OPEN, LiveSession.State.CLOSED):
            raise LiveActionRefused("The lab has run: this session is finished. Open a new one "
                                    "to ask again.")
        changes: dict[str, object] = {}
        if action == "close":
            changes = {"state": LiveSession.State.CLOSED, "closed_at": timezone.now()}
        elif action == "reopen":
            changes = {"state": LiveSession.State.OPEN, "closed_at": None}
        elif action in ("show", "hide"):
            changes = {"show_distribution": action == "show"}
        else:
            raise LiveActionRefused(f"Unknown action {action!r}.")
        LiveSession.objects.filter(pk=current.pk).update(version=F("version") + 1, **changes)
        current.refresh_from_db()
        live_changed(session_id=current.pk, version=current.version, state=current.state,
                     phones=action in ("close", "reopen"))
    return current


def live_session_run(*, session: LiveSession, staff: LiveStaff) -> LiveSession:
    """Close answering and reveal: keep the room's distribution as it stood, request the
    class's lab run (class variant) and queue the reveal task, which grades every locked
    prediction against what the lab measured (live/reveal.py). A part with no lab is
    revealed by the same task (its answers were graded when given).

    Raises LiveActionRefused when the lab has run already."""
    with transaction.atomic(durable=True):
        current = (LiveSession.objects.select_for_update().select_related("part__exercise")
                   .get(pk=session.pk))
        if current.state not in (LiveSession.State.OPEN, LiveSession.State.CLOSED):
            raise LiveActionRefused("The lab has already run for this session.")
        now = timezone.now()
        current.distribution_before = live_distribution(session=current)
        current.state = LiveSession.State.RUNNING
        current.closed_at = current.closed_at or now
        current.run_at = now
        part = current.part
        if lab_graded(part.spec) and current.variant == LiveSession.Variant.CLASS:
            lab = Lab.objects.active().get(module_id=part.exercise.module_id, slug=part.spec["lab"])
            params = prediction_lab_params(part.spec, default_variant(exercise=part.exercise).params)
            current.lab_run = lab_run_request(lab=lab, course=current.course, requester=staff.user,
                                              params=params, seed=0)
        current.version += 1
        current.save(update_fields=["distribution_before", "state", "closed_at", "run_at",
                                    "lab_run", "version"])
        live_changed(session_id=current.pk, version=current.version, state=current.state,
                     phones=True)
        task_send_on_commit(REVEAL_TASK, current.pk)
    return current
