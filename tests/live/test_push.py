"""Server push: the projector's WebSocket receives each answer's count as it comes, a phone
its own verdict; strangers are refused. Real consumers on the in-memory channel layer."""

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from live.answers import live_answer_submit
from live.reveal import live_reveal
from live.routing import websocket_urlpatterns
from live.sessions import live_session_run
from tests.live.conftest import enrol_students

pytestmark = pytest.mark.django_db(transaction=True)
APP = URLRouter(websocket_urlpatterns)


def socket(path: str, user) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(APP, path)
    communicator.scope["user"] = user
    return communicator


def test_the_projector_sees_answers_and_a_phone_its_verdict_without_asking(course, session, staff, irene):
    students = enrol_students(course, 2)

    async def scenario() -> None:
        room = socket(f"/ws/live/room/{session.pk}/", irene)
        assert (await room.connect())[0]
        first = await room.receive_json_from(timeout=5)
        assert first["count"] == 0 and first["state"] == "open"
        phone = socket(f"/ws/live/phone/{session.code}/", students[0])
        assert (await phone.connect())[0]
        assert (await phone.receive_json_from(timeout=5))["state"] == "open"

        await sync_to_async(live_answer_submit)(session=session, student=students[0], raw_answer="queen")
        await sync_to_async(live_answer_submit)(session=session, student=students[1], raw_answer="woman")
        seen = 0
        while seen < 2:  # a burst of nudges may be coalesced into one state
            state = await room.receive_json_from(timeout=5)
            seen = state["count"]
        assert {b["key"]: b["count"] for b in state["bars"]}["queen"] == 1

        await sync_to_async(live_session_run)(session=session, staff=staff)
        assert (await phone.receive_json_from(timeout=5)) == {
            "type": "changed", "state": "running", "version": state["version"] + 1}
        await sync_to_async(live_reveal)(session_id=session.pk)
        verdict = await phone.receive_json_from(timeout=5)
        assert verdict["type"] == "verdict" and verdict["verdict"]["outcome"] == "correct"
        assert verdict["verdict"]["measured"] == "Near queen"
        assert verdict["verdict"]["answer"] == "queen"  # its own answer, nobody else's
        assert set(verdict["verdict"]) == {"outcome", "label", "score", "feedback", "feedback_html",
                                            "measured", "answer", "answer_text"}
        await room.disconnect()
        await phone.disconnect()

    async_to_sync(scenario)()


def test_a_student_cannot_watch_the_projector_and_a_stranger_cannot_join(course, session, oscar):
    (student,) = enrol_students(course, 1)

    async def scenario() -> None:
        room = socket(f"/ws/live/room/{session.pk}/", student)
        connected, code = await room.connect()
        assert not connected and code == 4403
        phone = socket(f"/ws/live/phone/{session.code}/", oscar)
        connected, code = await phone.connect()
        assert not connected and code == 4404

    async_to_sync(scenario)()
