"""Idempotency-Key for POSTs: the first response is stored and replayed for every retry.

The record is committed (unique per principal and key) BEFORE the work runs, so a
concurrent retry finds it: it waits for the first request to finish and replays its
response, and never performs the work a second time. The same key with a different body is
refused (422). A request that crashed without a response leaves its record "running": its
retries get 409, because the work may have been done and must not be done twice.
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

from config.api.access import Principal
from config.api.errors import ApiError, api_exception_handler
from courses.models import IdempotencyRecord

HEADER = "Idempotency-Key"
#: How long a retry waits for a concurrent first request before answering 409.
WAIT_SECONDS = 15.0
POLL_SECONDS = 0.05
#: Keys are remembered this long; clients retry within minutes, never days.
RETENTION = timedelta(days=7)


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
    """The record once its first request completed; ApiError 409 if it does not within
    `timeout` seconds (default WAIT_SECONDS)."""
    deadline = time.monotonic() + (WAIT_SECONDS if timeout is None else timeout)
    while True:
        current = IdempotencyRecord.objects.filter(pk=record.pk).first()
        if current is None:
            raise ApiError(409, "idempotency_in_progress",
                           "The first request with this Idempotency-Key failed; retry it.")
        if current.status_code is not None:
            return current
        if time.monotonic() >= deadline:
            raise ApiError(409, "idempotency_in_progress",
                           "A request with this Idempotency-Key is still in progress (or was "
                           "interrupted); check its result before retrying with a new key.")
        time.sleep(POLL_SECONDS)


def idempotent(request: Request, principal: Principal, perform: Callable[[], Response]) -> Response:
    """Run `perform` once per Idempotency-Key (if the request has one) and replay its response.

    Error responses (4xx from an APIException) are stored and replayed too; any other
    exception forgets the key so that the request can be retried.
    """
    key = request.headers.get(HEADER, "").strip()
    if not key:
        return perform()
    if len(key) > 255:
        raise ApiError(400, "invalid", "The Idempotency-Key header is too long (255 at most).",
                       {HEADER: ["At most 255 characters."]})
    record, first = idempotency_begin(principal=principal.ident, key=key,
                                      fingerprint=request_fingerprint(request))
    if not first:
        done = idempotency_wait(record=record)
        if done.status_code is None:  # pragma: no cover - idempotency_wait guarantees it
            raise ApiError(409, "idempotency_in_progress", "Still in progress.")
        replay = Response(done.response, status=done.status_code)
        if done.location:
            replay["Location"] = done.location
        replay["Idempotent-Replayed"] = "true"
        return replay
    try:
        response = perform()
    except APIException as exc:
        error = api_exception_handler(exc, {"request": request})
        if error is not None:
            idempotency_complete(record=record, status_code=error.status_code, body=error.data)
        raise
    except BaseException:
        IdempotencyRecord.objects.filter(pk=record.pk).delete()
        raise
    idempotency_complete(record=record, status_code=response.status_code, body=response.data,
                         location=response.get("Location", ""))
    return response


def idempotency_records_prune(*, older_than: timedelta = RETENTION) -> int:
    """Forget Idempotency-Keys older than `older_than` (a retry after that is a new request);
    returns how many were removed."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=timezone.now() - older_than).delete()
    return deleted
