"""Sync health of a course: each student's score deliveries to the LMS, and counts by state."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Case, Count, Value, When

from core.pagination import KnownCountPaginator
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
    rows: list[DeliveryRow]  # this page
    counts: dict[str, int] = field(default_factory=dict)
    rosters: list[dict[str, Any]] = field(default_factory=list)
    page: int = 1
    pages: int = 1
    total: int = 0  # deliveries in the state asked for (all states without one)


#: Deliveries per page of the sync page and of the API.
PER_PAGE = 100
#: Failed first, then retrying, then on their way, then sent.
_ORDER = Case(When(state=ScoreDelivery.State.FAILED, then=Value(0)),
              When(state=ScoreDelivery.State.RETRYING, then=Value(1)),
              When(state__in=(ScoreDelivery.State.WAITING, ScoreDelivery.State.SENDING),
                   then=Value(2)),
              default=Value(3))


def sync_health(*, course: Course, state: str | None = None, page: int = 1) -> SyncHealth:
    """One page (`PER_PAGE`) of the course's deliveries (optionally only those shown as
    `state`), failed first, then by student and exercise, ordered and paged in the database;
    with counts of each shown state and the last roster reads. A page past the last is the
    last. Three queries whatever the size of the class."""
    deliveries = ScoreDelivery.objects.filter(course=course)
    counts = dict.fromkeys(SHOWN_STATES, 0)
    for raw_state, count in _state_counts(deliveries):
        counts[shown_state(raw_state)] += count
    total = counts[state] if state else sum(counts.values())
    if state:
        raw = [state, ScoreDelivery.State.SENDING] if state == "waiting" else [state]
        deliveries = deliveries.filter(state__in=raw)
    shown = KnownCountPaginator(
        deliveries.select_related("student", "exercise", "assessment").annotate(rank=_ORDER)
        .order_by("rank", "student__username", "exercise__slug", "id"),
        PER_PAGE, count=total).get_page(page)
    rows = [
        DeliveryRow(
            id=d.pk, student_id=d.student_id, username=d.student.username,
            name=d.student.get_full_name() or d.student.username, exercise=d.item_slug,
            exercise_title=d.item_title, score=d.score_given, out_of=d.score_maximum,
            decided_at=d.decided_at, state=shown_state(d.state),
            last_sent_score=d.sent_score_given, last_sent_at=d.sent_at, attempts=d.attempts,
            message=d.last_error,
            next_attempt_at=d.next_attempt_at if d.state == ScoreDelivery.State.RETRYING else None)
        for d in shown
    ]
    rosters = [{"context": str(r.context), "synced_at": r.synced_at, "summary": r.summary,
                "error": r.error}
               for r in RosterSyncState.objects.filter(context__course_link__course=course)
               .select_related("context")]
    return SyncHealth(course=course, rows=rows, counts=counts, rosters=rosters,
                      page=shown.number, pages=shown.paginator.num_pages, total=total)


def _state_counts(deliveries: Any) -> list[tuple[str, int]]:
    return list(deliveries.values_list("state").annotate(n=Count("id")).order_by())


def sync_health_data(*, course: Course, state: str | None = None,
                     page: int = 1) -> dict[str, Any]:
    """`sync_health` as JSON-ready data (the REST API's representation)."""
    health = sync_health(course=course, state=state, page=page)
    return {
        "course": course.slug,
        "counts": health.counts,
        "page": health.page,
        "pages": health.pages,
        "total": health.total,
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
