"""The outbox: an event is recorded in the transaction that stores what it reports.

An app that emits an event (a graded submission, a finished lab run) calls `event_record`
inside the transaction that stores it, so the event exists if and only if that commit
happens. Each registered consumer (webhooks here; LTI grade passback registers its own)
writes its own rows in that same transaction and delivers them after the commit. The
payload is built lazily, at most once, and only if a consumer wants it.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction


@dataclass
class Event:
    """One event: its name, the course it belongs to, its subject's id and a lazy payload."""

    name: str
    course_id: int
    subject_id: int | str
    build_payload: Callable[[], dict[str, Any]]
    _payload: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def payload(self) -> dict[str, Any]:
        """The event's data (built on first use)."""
        if self._payload is None:
            self._payload = self.build_payload()
        return self._payload


Consumer = Callable[[Event], object]  # its return value is ignored
#: A consumer of many events of one course at once (see `events_record_many`).
ManyConsumer = Callable[[list[Event]], object]
_CONSUMERS: list[tuple[Consumer, ManyConsumer | None]] = []


def outbox_consumer_register(consumer: Consumer, many: ManyConsumer | None = None) -> None:
    """Hand every recorded event to `consumer` (inside the event's transaction); once only.
    `many`, when given, takes the events `events_record_many` records together (it must do
    what `consumer` does for each, in fewer queries)."""
    if all(registered is not consumer for registered, _ in _CONSUMERS):
        _CONSUMERS.append((consumer, many))


def event_record(*, name: str, course_id: int, subject_id: int | str,
                 payload: Callable[[], dict[str, Any]]) -> Event:
    """Record event `name` of the course for every consumer; returns the event.

    Must be called inside the transaction that stores what the event reports (RuntimeError
    otherwise). `payload()` builds the event's data and is called at most once.
    """
    event = Event(name=name, course_id=course_id, subject_id=subject_id, build_payload=payload)
    events_record_many([event])
    return event


def events_record_many(events: list[Event]) -> None:
    """Record `events` (all of one course) for every consumer, as `event_record` records
    each, handing them to a consumer's `many` at once where it has one. Must be called
    inside the transaction that stores what they report (RuntimeError otherwise)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("event_record must run inside the event's transaction")
    if not events:
        return
    if len({event.course_id for event in events}) > 1:
        raise ValueError("events_record_many takes the events of one course")
    for consumer, many in _CONSUMERS:
        if many is not None and len(events) > 1:
            many(events)
        else:
            for event in events:
                consumer(event)
