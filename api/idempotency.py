"""Idempotency-Key for POSTs: the first response is stored and replayed for every retry.

The record is committed (unique per principal and key) BEFORE the work runs, so a
concurrent retry finds it: it waits for the first request to finish and replays its
response, and never performs the work a second time. The same key with a different body is
refused (422).

A request whose process dies leaves its record "running". The work notes what it created on
the record in the same transaction that stores it (`note`), so a retry can tell: if the
record names a resource, the retry answers from that resource as it is now; if it names
none and is older than STALE_AFTER (no request lives that long), nothing was stored and the
retry takes the record over and does the work. Otherwise the retry gets 409.
"""

import hashlib
import json
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import Principal
from api.errors import ApiError, api_exception_handler
from api.models import IdempotencyRecord

HEADER = "Idempotency-Key"
#: How long a retry waits for a concurrent first request before answering 409.
WAIT_SECONDS = 15.0
POLL_SECONDS = 0.05
#: Keys are remembered this long; clients retry within minutes, never days.
RETENTION = timedelta(days=7)
#: A record still running, with nothing stored, this long after it began was left by a
#: request that died (web requests are cut off long before).
STALE_AFTER = timedelta(minutes=2)

#: Given to the work: call it with "kind:id" inside the transaction that stores the resource.
Note = Callable[[str], None]
#: Answers a retry from a stored resource ("kind:id"), or None if it is not there.
Replay = Callable[[str], Response | None]


def resource_name(kind: str, ident: object) -> str:
    """How the work names what it stored, for `note`: "submission:12"."""
    return f"{kind}:{ident}"


def resource_ident(resource: str, kind: str) -> str | None:
    """The id in a name made by `resource_name`, if it names a `kind`; else None."""
    named, _, ident = resource.partition(":")
    return ident if named == kind and ident else None


def request_fingerprint(request: Request) -> str:
    """sha256 of the method, path and JSON body: what makes two requests "the same"."""
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def idempotency_begin(*, principal: str, key: str, fingerprint: str) -> tuple[IdempotencyRecord, bool]:
    """Claim `key` for `principal`: (record, True) for the first request, (record, False) after.

    Raises ApiError 422 when the key was used with a different request.
    """
    try:
        with transaction.atomic(durable=True):
            record, created = IdempotencyRecord.objects.get_or_create(
                principal=principal, key=key, defaults={"fingerprint": fingerprint}
            )
    except IntegrityError:  # lost a race on SQLite, where get_or_create cannot block
        record, created = IdempotencyRecord.objects.get(principal=principal, key=key), False
    if record.fingerprint != fingerprint:
        raise ApiError(422, "idempotency_key_reused",
                       "This Idempotency-Key was used with a different request; use a new key.")
    return record, created


def idempotency_complete(*, record: IdempotencyRecord, status_code: int, body: Any,
                         location: str = "") -> None:
    """Store the response of the first request so that retries replay it."""
    IdempotencyRecord.objects.filter(pk=record.pk).update(
        status_code=status_code, response=body, location=location, completed_at=timezone.now()
    )


def idempotency_wait(*, record: IdempotencyRecord, timeout: float | None = None) -> IdempotencyRecord:
    """The record once its first request completed, or as it is after `timeout` seconds
    (default WAIT_SECONDS) if it is still running; ApiError 409 if it was forgotten."""
    deadline = time.monotonic() + (WAIT_SECONDS if timeout is None else timeout)
    while True:
        current = IdempotencyRecord.objects.filter(pk=record.pk).first()
        if current is None:
            raise ApiError(409, "idempotency_in_progress",
                           "The first request with this Idempotency-Key failed; retry it.")
        if current.status_code is not None or _stale(current) or time.monotonic() >= deadline:
            return current
        time.sleep(POLL_SECONDS)


def _stale(record: IdempotencyRecord) -> bool:
    return (record.status_code is None and not record.resource
            and record.created_at < timezone.now() - STALE_AFTER)


def idempotency_take_over(*, record: IdempotencyRecord) -> bool:
    """Claim a stale record (see the module) for this request; False if another retry did."""
    return bool(IdempotencyRecord.objects.filter(
        pk=record.pk, status_code=None, resource="", created_at=record.created_at,
    ).update(created_at=timezone.now()))


def idempotent(request: Request, principal: Principal, perform: Callable[[Note], Response], *,
               replay: Replay | None = None) -> Response:
    """Run `perform(note)` once per Idempotency-Key (if the request has one) and replay its
    response; `replay` answers a retry of a request that died after storing (see the module).

    Error responses (4xx from an APIException) are stored and replayed too; any other
    exception forgets the key so that the request can be retried, unless the work had
    already stored (noted) its resource: then a retry answers from that resource.
    """
    key = request.headers.get(HEADER, "").strip()
    if not key:
        return perform(lambda _resource: None)
    if len(key) > 255:
        raise ApiError(400, "invalid", "The Idempotency-Key header is too long (255 at most).",
                       {HEADER: ["At most 255 characters."]})
    record, first = idempotency_begin(principal=principal.ident, key=key,
                                      fingerprint=request_fingerprint(request))
    if not first:
        current = idempotency_wait(record=record)
        if current.status_code is not None:
            return _replayed(Response(current.response, status=current.status_code),
                             current.location)
        recovered = _recover(current, replay)
        if recovered is not None:
            return recovered
        record = current  # taken over: nothing was stored, so this request does the work

    def note(resource: str) -> None:
        IdempotencyRecord.objects.filter(pk=record.pk).update(resource=resource)

    try:
        response = perform(note)
    except APIException as exc:
        error = api_exception_handler(exc, {"request": request})
        if error is not None:
            idempotency_complete(record=record, status_code=error.status_code, body=error.data)
        raise
    except BaseException:
        # Forget the key only if nothing was stored: once the work noted a resource, a retry
        # must answer from it, never do the work a second time.
        IdempotencyRecord.objects.filter(pk=record.pk, resource="").delete()
        raise
    idempotency_complete(record=record, status_code=response.status_code, body=response.data,
                         location=response.get("Location", ""))
    return response


def _recover(record: IdempotencyRecord, replay: Replay | None) -> Response | None:
    """A retry's answer for a record whose request never completed; None when this request
    has taken the record over; ApiError 409 when neither is safe."""
    if record.resource and replay is not None:
        response = replay(record.resource)
        if response is not None:
            location = response.get("Location", "")
            idempotency_complete(record=record, status_code=response.status_code,
                                 body=response.data, location=location)
            return _replayed(response, location)
    if _stale(record) and idempotency_take_over(record=record):
        return None
    raise ApiError(409, "idempotency_in_progress",
                   "A request with this Idempotency-Key is still in progress; retry in a "
                   "moment.")


def _replayed(response: Response, location: str) -> Response:
    if location:
        response["Location"] = location
    response["Idempotent-Replayed"] = "true"
    return response


def idempotency_records_prune(*, older_than: timedelta = RETENTION) -> int:
    """Forget Idempotency-Keys older than `older_than` (a retry after that is a new request);
    returns how many were removed."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=timezone.now() - older_than).delete()
    return deleted
