"""The event labs emit: "lab_run.finished", with the payload receivers get."""

from typing import Any

from events.outbox import Event, events_record_many
from labs.models import LabRun

LAB_RUN_FINISHED = "lab_run.finished"


def lab_run_finished_record(*, run_id: int, course_id: int) -> None:
    """Record that run `run_id` finished; call it inside the transaction that stores its result."""
    events_record_many([lab_run_finished_event(run_id=run_id, course_id=course_id)])


def lab_run_finished_event(*, run_id: int, course_id: int) -> Event:
    """The "lab_run.finished" event of run `run_id`, for `events.outbox.events_record_many`."""
    return Event(name=LAB_RUN_FINISHED, course_id=course_id, subject_id=run_id,
                 build_payload=lambda: lab_run_finished_payload(run_id))


def lab_run_finished_payload(run_id: int) -> dict[str, Any]:
    """What receivers of "lab_run.finished" get about the run, as stored now."""
    run = LabRun.objects.select_related("course", "lab", "requester").get(pk=run_id)
    return {
        "course": run.course.slug,
        "run_id": str(run.uuid),
        "lab": run.lab.slug,
        "status": run.status,
        "requester_id": run.requester_id,
        "requester_username": run.requester.username,
        "submission_id": run.submission_id,
        "error": run.error,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "url": f"/api/v1/courses/{run.course.slug}/lab-runs/{run.uuid}/",
    }
