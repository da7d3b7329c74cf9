"""A guard for kombu's Redis transport: closing a channel after its connection was collected
must not kill the worker.

The bug (kombu 5.7.0, every redis-py): when the broker connection drops, Celery's consumer
calls `Connection.collect()` and then `Connection.close()`. `collect()` closes the channels;
when one of those closes fails half-way on the dead socket (a pending BRPOP that times out,
a restore that cannot reach Redis), kombu swallows the connection error, leaves that channel
open, and detaches the transport from its connection (`transport.client = None`). The
`close()` that follows closes the channel again; restoring its unacknowledged messages then
builds a new Redis pool from `transport.client.hostname` and raises
`AttributeError: 'NoneType' object has no attribute 'hostname'`, which Celery does not count
as a connection error: "Unrecoverable error", and the worker exits for good.

`kombu_redis_restore_guard()` makes that restore a no-op while the transport has no
connection: the messages stay in Redis's unacknowledged set, which kombu puts back on the
queue after the visibility timeout, and the sweeper re-queues the lab runs from the database
long before that (`labs.services.lab_run_sweep`). Remove it once kombu handles the case.
"""

import functools
import logging
from typing import Any

logger = logging.getLogger(__name__)

_GUARDED = "_grader_restore_guarded"


def kombu_redis_restore_guard() -> None:
    """Patch kombu's Redis QoS.restore_unacked to leave the messages in Redis (and log it)
    when the channel's transport has lost its connection (idempotent)."""
    from kombu.transport import redis as kombu_redis

    original = kombu_redis.QoS.restore_unacked
    if getattr(original, _GUARDED, False):
        return

    @functools.wraps(original)
    def restore_unacked(self: Any, client: Any = None) -> Any:
        transport = getattr(self.channel, "connection", None)
        if client is None and (transport is None or getattr(transport, "client", None) is None):
            logger.warning(
                "broker connection already closed: %d unacknowledged message(s) left in Redis "
                "for the visibility timeout (the sweeps re-queue their work sooner)",
                len(self._delivered))
            self._delivered.clear()
            return None
        return original(self, client)

    setattr(restore_unacked, _GUARDED, True)
    kombu_redis.QoS.restore_unacked = restore_unacked  # type: ignore[method-assign]
