"""WebSocket consumers (Django Channels): the projector's and the phones'.

The projector gets a nudge per answer and sends itself the room's state, coalescing a burst
of nudges into one read; a phone is sent state changes and its own verdict only, so 500
phones are not sent every answer of the room.
"""

import asyncio
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from core.not_found import NotFound
from live.access import staff_may_watch
from live.push import phones_group, room_group, user_group
from live.selectors import live_phone_state, live_phone_view, live_room_state


class RoomConsumer(AsyncJsonWebsocketConsumer):
    """/ws/live/room/<session_id>/: course staff only (closed with 4403 otherwise)."""

    async def connect(self) -> None:
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        user = self.scope.get("user")
        if not await database_sync_to_async(staff_may_watch)(user=user, session_id=self.session_id):
            await self.close(code=4403)
            return
        self.group = room_group(self.session_id)
        self._dirty = False
        self._flushing: asyncio.Task[None] | None = None
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_state()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def live_changed(self, event: dict[str, Any]) -> None:
        self._dirty = True
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.ensure_future(self._flush())

    async def _flush(self) -> None:
        while self._dirty:
            self._dirty = False
            await self._send_state()

    async def _send_state(self) -> None:
        state = await database_sync_to_async(live_room_state)(session_id=self.session_id)
        if state is None:  # the session was deleted under the projector
            await self.close(code=4404)
            return
        await self.send_json(state)


class PhoneConsumer(AsyncJsonWebsocketConsumer):
    """/ws/live/phone/<code>/: an active member of the session's course."""

    async def connect(self) -> None:
        code = str(self.scope["url_route"]["kwargs"]["code"])
        user = self.scope.get("user")
        view = await database_sync_to_async(live_phone_view)(user=user, code=code)
        if isinstance(view, NotFound):  # not signed in, unknown code, another course
            await self.close(code=4404)
            return
        self.groups_joined = [phones_group(view.session.pk), user_group(view.session.pk, user.pk)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        state = live_phone_state(view=view)
        await self.send_json({"type": "changed", "state": state["state"], "version": state["version"]})
        if state["verdict"]:
            await self.send_json({"type": "verdict", "verdict": state["verdict"]})

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def live_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed", "state": event["state"], "version": event["version"]})

    async def live_verdict(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "verdict", "verdict": event["verdict"]})
