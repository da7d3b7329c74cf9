"""Sync health of a course: each student's score deliveries to the LMS, and counts by state."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from courses.models import Course
from lti.scores_models import RosterSyncState, ScoreDelivery

#: What instructors see: "sending" is shown as "waiting" (it is on its way).
SHOWN_STATES = ("sent", "waiting", "retrying", "failed")


def shown_state(state: str) -> str:
    """The state as instructors see it (sent / waiting / retrying / failed)."""
    return "waiting" if state == ScoreDelivery.State.SENDING else state


@dataclass(frozen=True)
class DeliveryRow:
    id: int
    student_id: int
    username: str
    name: str
    exercise: str
    exercise_title: str
    score: float
    out_of: float
    decided_at: datetime
    state: str
    last_sent_score: float | None
    last_sent_at: datetime | None
    attempts: int
    message: str
    next_attempt_at: datetime | None


@dataclass
class SyncHealth:
    course: Course
    rows: list[DeliveryRow]
    counts: dict[str, int] = field(default_factory=dict)
    rosters: list[dict[str, Any]] = field(default_factory=list)


def sync_health(*, course: Course, state: str | None = None) -> SyncHealth:
    """The course's deliveries (optionally only those shown as `state`), failed first, then
    by student and exercise, with counts of each shown state and the last roster reads.
    Three queries whatever the size of the class."""
    deliveries = ScoreDelivery.objects.filter(course=course)
    counts = dict.fromkeys(SHOWN_STATES, 0)
    for raw_state, count in _state_counts(deliveries):
        counts[shown_state(raw_state)] += count
    if state:
        raw = [state, ScoreDelivery.State.SENDING] if state == "waiting" else [state]
        deliveries = deliveries.filter(state__in=raw)
    order = {"failed": 0, "retrying": 1, "waiting": 2, "sending": 2, "sent": 3}
    rows = sorted((
        DeliveryRow(
            id=d.pk, student_id=d.student_id, username=d.student.username,
            name=d.student.get_full_name() or d.student.username, exercise=d.exercise.slug,
            exercise_title=d.exercise.title, score=d.score_given, out_of=d.score_maximum,
            decided_at=d.decided_at, state=shown_state(d.state),
            last_sent_score=d.sent_score_given, last_sent_at=d.sent_at, attempts=d.attempts,
            message=d.last_error,
            next_attempt_at=d.next_attempt_at if d.state == ScoreDelivery.State.RETRYING else None)
        for d in deliveries.select_related("student", "exercise")
    ), key=lambda r: (order.get(r.state, 9), r.username, r.exercise))
    rosters = [{"context": str(r.context), "synced_at": r.synced_at, "summary": r.summary,
                "error": r.error}
               for r in RosterSyncState.objects.filter(context__course_link__course=course)
               .select_related("context")]
    return SyncHealth(course=course, rows=rows, counts=counts, rosters=rosters)


def _state_counts(deliveries: Any) -> list[tuple[str, int]]:
    from django.db.models import Count

    return list(deliveries.values_list("state").annotate(n=Count("id")).order_by())


def sync_health_data(*, course: Course, state: str | None = None) -> dict[str, Any]:
    """`sync_health` as JSON-ready data (the REST API's representation)."""
    health = sync_health(course=course, state=state)
    return {
        "course": course.slug,
        "counts": health.counts,
        "deliveries": [
            {"id": r.id, "student_id": r.student_id, "username": r.username,
             "exercise": r.exercise, "score": r.score, "out_of": r.out_of,
             "decided_at": r.decided_at.isoformat(), "state": r.state,
             "last_sent_score": r.last_sent_score,
             "last_sent_at": r.last_sent_at.isoformat() if r.last_sent_at else None,
             "attempts": r.attempts, "message": r.message,
             "next_attempt_at": r.next_attempt_at.isoformat() if r.next_attempt_at else None}
            for r in health.rows
        ],
    }
