"""One Celery beat at a time: a lease in the database that the beat sending the schedule holds.

Celery beat must run exactly once (docs/scaling.md), but a deployment may start two by
mistake (a Kubernetes rollout, two Compose hosts, a restarted host whose old beat still
runs). Every beat of this project runs `LeasedScheduler` (CELERY_BEAT_SCHEDULER): before each
tick it takes or renews the row `BeatLease(name="celery-beat")` for BEAT_LEASE_SECONDS, and
only the holder sends due tasks; the others wait and try again, and take over within a
lease's length once the holder stops renewing (killed, partitioned from the database). The
lease is taken and renewed by one conditional UPDATE (holder is me, or the lease expired), so
two beats can never both hold it; a database error counts as not holding it (nothing sent
rather than twice). A beat that stops cleanly gives the lease up at once.
"""

import logging
import os
import socket
import uuid
from datetime import timedelta
from typing import Any

from celery.beat import PersistentScheduler
from django.conf import settings
from django.db import IntegrityError, close_old_connections, connection, transaction
from django.db.models import Q
from django.utils import timezone

from ops.models import BeatLease

logger = logging.getLogger(__name__)

LEASE_NAME = "celery-beat"


@transaction.atomic(durable=True)
def beat_lease_hold(*, name: str, holder: str, seconds: float) -> bool:
    """Take the lease `name` for `holder`, or renew it, for `seconds` from now. True when
    `holder` holds it afterwards; False while another holder's lease has not expired."""
    now = timezone.now()
    until = now + timedelta(seconds=seconds)
    taken = (BeatLease.objects.filter(name=name)
             .filter(Q(holder=holder) | Q(expires_at__lt=now))
             .update(holder=holder, expires_at=until))
    if taken:
        return True
    try:
        with transaction.atomic():
            BeatLease.objects.create(name=name, holder=holder, expires_at=until)
    except IntegrityError:  # the row exists: another holder's lease is still running
        return False
    return True


@transaction.atomic(durable=True)
def beat_lease_release(*, name: str, holder: str) -> None:
    """Give up the lease `name` if `holder` holds it (another beat may take it at once)."""
    BeatLease.objects.filter(name=name, holder=holder).delete()


def lease_seconds() -> float:
    """How long a taken or renewed lease lasts (BEAT_LEASE_SECONDS, default 30)."""
    return float(getattr(settings, "BEAT_LEASE_SECONDS", 30.0))


class LeasedScheduler(PersistentScheduler):
    """Celery's default scheduler (schedule state in a local file), sending due tasks only
    while this process holds the beat lease; ticks at least every third of a lease so the
    holder renews it well before it expires."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.lease_holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.lease_held: bool | None = None  # not asked yet
        super().__init__(*args, **kwargs)

    def lease_renew(self) -> bool:
        """Take or renew the lease; log when this beat starts or stops sending the schedule."""
        close_old_connections()
        try:
            held = beat_lease_hold(name=LEASE_NAME, holder=self.lease_holder,
                                   seconds=lease_seconds())
        except Exception:  # the database is away: send nothing rather than risk twice
            logger.warning("beat lease could not be renewed; not sending the schedule",
                           exc_info=True)
            connection.close()
            held = False
        if held != self.lease_held:
            if held:
                logger.info("beat lease taken by %s: this beat sends the schedule",
                            self.lease_holder)
            else:
                logger.warning("beat lease held by another beat: %s stands by", self.lease_holder)
        self.lease_held = held
        return held

    def tick(self, *args: Any, **kwargs: Any) -> float:
        """Celery's tick while the lease is held; else nothing sent, try again shortly."""
        interval = lease_seconds() / 3
        if not self.lease_renew():
            return interval
        return float(min(super().tick(*args, **kwargs), interval))

    def close(self) -> None:
        """Save the schedule state, then give the lease up (a clean stop)."""
        super().close()
        if self.lease_held:
            try:
                beat_lease_release(name=LEASE_NAME, holder=self.lease_holder)
            except Exception:  # the database is away: the lease expires by itself
                logger.warning("beat lease could not be released", exc_info=True)
            self.lease_held = False
