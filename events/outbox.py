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
_CONSUMERS: list[Consumer] = []


def outbox_consumer_register(consumer: Consumer) -> None:
    """Hand every recorded event to `consumer` (inside the event's transaction); once only."""
    if consumer not in _CONSUMERS:
        _CONSUMERS.append(consumer)


def event_record(*, name: str, course_id: int, subject_id: int | str,
                 payload: Callable[[], dict[str, Any]]) -> Event:
    """Record event `name` of the course for every consumer; returns the event.

    Must be called inside the transaction that stores what the event reports (RuntimeError
    otherwise). `payload()` builds the event's data and is called at most once.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("event_record must run inside the event's transaction")
    event = Event(name=name, course_id=course_id, subject_id=subject_id, build_payload=payload)
    for consumer in _CONSUMERS:
        consumer(event)
    return event
