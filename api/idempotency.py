"""Idempotency-Key for POSTs: the first response is stored and replayed for every retry.

The key's record is written in the SAME transaction that stores what the request created
(the work calls `note` there), never before it: a request that fails before storing (its
database connection cut, its process killed) leaves no record behind, and its retry is
processed at once instead of waiting for a claim nobody will finish. Two requests with one
key that run at the same time both reach the storing transaction; the second one's record
insert waits (PostgreSQL's unique index) for the first to commit, then fails: its own
transaction rolls back, storing nothing, and it answers as a retry. Once the work is done
the response is added to the record and replayed for every later retry; a retry that finds
the resource stored but no response yet (the first request still grading, or dead after
storing) waits up to WAIT_SECONDS, then answers from the resource as it is now. The same
key with a different body is refused (422). Error responses (4xx from an APIException) are
recorded too and replayed.
"""

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import Principal
from api.errors import ApiError, api_exception_handler
from api.models import IdempotencyRecord

HEADER = "Idempotency-Key"
#: How long a retry waits for a concurrent first request's response before answering from
#: what it stored (or 409 if it stored nothing).
WAIT_SECONDS = 15.0
POLL_SECONDS = 0.05
#: Keys are remembered this long; clients retry within minutes, never days.
RETENTION = timedelta(days=7)
#: A record with neither a response nor a resource was a claim made before the work by an
#: earlier version of this module; one this old was left by a request that died.
STALE_AFTER = timedelta(minutes=2)

#: Given to the work: call it with "kind:id" inside the transaction that stores the resource.
Note = Callable[[str], None]
#: Answers a retry from a stored resource ("kind:id"), or None if it is not there.
Replay = Callable[[str], Response | None]


class KeyTaken(Exception):
    """Another request with the same key stored its work first (raised by `note` inside the
    storing transaction, which then rolls back)."""


@dataclass(frozen=True)
class Claim:
    """One request's Idempotency-Key: whose, which, and the fingerprint of its request."""

    principal: str
    key: str
    fingerprint: str

    def records(self) -> QuerySet[IdempotencyRecord]:
        """The key's record (none, or one: unique per principal and key)."""
        return IdempotencyRecord.objects.filter(principal=self.principal, key=self.key)


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


def idempotency_find(*, claim: Claim) -> IdempotencyRecord | None:
    """The record of an earlier request with this key, or None (this request is the first,
    or every earlier one failed before storing anything).

    Raises ApiError 422 when the key was used with a different request. A claim left by a
    request of the earlier design that died (no response, nothing stored, older than
    STALE_AFTER) is removed and None returned.
    """
    record = claim.records().first()
    if record is None:
        return None
    if record.fingerprint != claim.fingerprint:
        raise ApiError(422, "idempotency_key_reused",
                       "This Idempotency-Key was used with a different request; use a new key.")
    if record.status_code is None and not record.resource \
            and record.created_at < timezone.now() - STALE_AFTER:
        claim.records().filter(pk=record.pk, status_code=None, resource="").delete()
        return None
    return record


def idempotency_note(*, claim: Claim, resource: str) -> None:
    """Record that this request stored `resource`; call it inside the transaction that
    stores it, so that the record commits or rolls back with the resource.

    Raises KeyTaken when another request with the key has recorded its own first (on
    PostgreSQL the insert waits for that request's transaction to end).
    """
    try:
        with transaction.atomic():
            IdempotencyRecord.objects.create(principal=claim.principal, key=claim.key,
                                             fingerprint=claim.fingerprint, resource=resource)
    except IntegrityError as exc:
        raise KeyTaken(claim.key) from exc


def idempotency_complete(*, claim: Claim, status_code: int, body: Any,
                         location: str = "") -> None:
    """Store the response of the first request so that retries replay it (the record is
    made here when the work stored nothing, e.g. a refusal)."""
    done = {"status_code": status_code, "response": body, "location": location,
            "completed_at": timezone.now()}
    with transaction.atomic(durable=True):
        if claim.records().filter(status_code=None).update(**done):
            return
        if claim.records().exists():
            return  # a concurrent request with the key completed first: its answer stands
        try:
            with transaction.atomic():
                IdempotencyRecord.objects.create(principal=claim.principal, key=claim.key,
                                                 fingerprint=claim.fingerprint, **done)
        except IntegrityError:
            return  # the same race, on the insert


def idempotency_wait(*, record: IdempotencyRecord, timeout: float | None = None) -> IdempotencyRecord:
    """The record once its first request completed, or as it is after `timeout` seconds
    (default WAIT_SECONDS) if it is still running; ApiError 409 if it was forgotten."""
    deadline = time.monotonic() + (WAIT_SECONDS if timeout is None else timeout)
    while True:
        current = IdempotencyRecord.objects.filter(pk=record.pk).first()
        if current is None:
            raise ApiError(409, "idempotency_in_progress",
                           "The first request with this Idempotency-Key failed; retry it.")
        if current.status_code is not None or time.monotonic() >= deadline:
            return current
        time.sleep(POLL_SECONDS)


def idempotent(request: Request, principal: Principal, perform: Callable[[Note], Response], *,
               replay: Replay | None = None) -> Response:
    """Run `perform(note)` once per Idempotency-Key (if the request has one) and replay its
    response; `replay` answers a retry from the stored resource (see the module).

    `perform` must call `note(resource)` inside the transaction that stores its resource
    (then KeyTaken, raised there when a concurrent request with the key stored first, rolls
    that transaction back and the request answers as a retry). Any exception other than an
    APIException leaves no trace of the key unless the resource was stored: a retry after a
    failure before storing does the work.
    """
    key = request.headers.get(HEADER, "").strip()
    if not key:
        return perform(lambda _resource: None)
    if len(key) > 255:
        raise ApiError(400, "invalid", "The Idempotency-Key header is too long (255 at most).",
                       {HEADER: ["At most 255 characters."]})
    claim = Claim(principal=principal.ident, key=key, fingerprint=request_fingerprint(request))
    earlier = idempotency_find(claim=claim)
    if earlier is not None:
        return _retried(earlier, replay)
    try:
        response = perform(lambda resource: idempotency_note(claim=claim, resource=resource))
    except KeyTaken:
        earlier = idempotency_find(claim=claim)
        if earlier is None:  # the other request's record is gone already (pruned): unusual
            raise ApiError(409, "idempotency_in_progress",
                           "Another request with this Idempotency-Key is in progress; retry "
                           "in a moment.") from None
        return _retried(earlier, replay)
    except APIException as exc:
        error = api_exception_handler(exc, {"request": request})
        if error is not None:
            idempotency_complete(claim=claim, status_code=error.status_code, body=error.data)
        raise
    idempotency_complete(claim=claim, status_code=response.status_code, body=response.data,
                         location=response.get("Location", ""))
    return response


def _retried(record: IdempotencyRecord, replay: Replay | None) -> Response:
    """A retry's answer: the first response, else one made from the stored resource once the
    first request had WAIT_SECONDS to finish; ApiError 409 when neither is there."""
    current = idempotency_wait(record=record)
    if current.status_code is not None:
        return _replayed(Response(current.response, status=current.status_code),
                         current.location)
    if current.resource and replay is not None:
        response = replay(current.resource)
        if response is not None:
            location = response.get("Location", "")
            IdempotencyRecord.objects.filter(pk=current.pk, status_code=None).update(
                status_code=response.status_code, response=response.data, location=location,
                completed_at=timezone.now())
            return _replayed(response, location)
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
