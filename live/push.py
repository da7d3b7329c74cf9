"""Server push to the projector and the phones, over the Channels layer (Redis in
production, in memory on the embedded defaults). Best effort: a message that cannot be
sent is logged and dropped, never fails the request; the pages poll as a fallback.

Groups: `live-room-<id>` (the projector: a nudge per answer), `live-phones-<id>` (every
phone: state changes only) and `live-user-<id>-<user>` (one phone: its own verdict).
"""

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)
#: Seconds a batch of pushes may take before it is dropped (the pages poll meanwhile).
SEND_TIMEOUT = 2.0


def room_group(session_id: int) -> str:
    return f"live-room-{session_id}"


def phones_group(session_id: int) -> str:
    return f"live-phones-{session_id}"


def user_group(session_id: int, user_id: int) -> str:
    return f"live-user-{session_id}-{user_id}"


def _send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    async def bounded() -> None:  # a layer that does not answer must never hold a request
        await asyncio.wait_for(send(), timeout=SEND_TIMEOUT)

    try:
        async_to_sync(bounded)()
    except Exception:  # the push is an optimisation: clients poll when it is missing
        logger.warning("live push failed (%d messages)", len(messages), exc_info=True)


def live_changed(*, session_id: int, version: int, state: str, phones: bool) -> None:
    """After commit: tell the projector (and, for a change of state, every phone)."""
    message = {"type": "live.changed", "version": version, "state": state}
    groups = [room_group(session_id)] + ([phones_group(session_id)] if phones else [])
    transaction.on_commit(lambda: _send_all([(g, message) for g in groups]))


def live_verdicts_send(*, session_id: int, verdicts: Iterable[tuple[int, dict[str, Any]]]) -> None:
    """Send each (user id, verdict) to that student's phone, now."""
    _send_all([(user_group(session_id, user_id), {"type": "live.verdict", "verdict": verdict})
               for user_id, verdict in verdicts])
