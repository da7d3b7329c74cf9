"""WebSocket routes of live mode (served by the ASGI process, config/asgi.py)."""

from django.urls import path

from live.consumers import PhoneConsumer, RoomConsumer

websocket_urlpatterns = [
    path("ws/live/room/<int:session_id>/", RoomConsumer.as_asgi()),
    path("ws/live/phone/<str:code>/", PhoneConsumer.as_asgi()),
]
