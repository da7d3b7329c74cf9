"""Closing a Redis channel whose connection kombu already collected (what Celery's consumer
does after a broker connection drops) must not raise: kombu 5.7.0 raised AttributeError
("'NoneType' object has no attribute 'hostname'") there, and the worker exited for good."""

import uuid
from typing import Any

import pytest
from django.conf import settings
from kombu import Connection, Exchange, Queue

pytestmark = pytest.mark.services


@pytest.fixture
def redis_url(broker_url: str) -> str:
    if not broker_url.startswith("redis"):
        pytest.skip("needs Redis as the broker (CELERY_BROKER_URL=redis://...)")
    return broker_url


def test_a_channel_closed_after_its_connection_was_collected_leaves_its_messages_in_redis(
        redis_url) -> None:
    import config.celery  # noqa: F401  # applies the guard, as every worker does

    tags: list[str] = []
    name = f"tests-restore-{uuid.uuid4().hex[:8]}"
    queue = Queue(name, Exchange(name), name)
    connection = Connection(redis_url)
    try:
        channel: Any = connection.default_channel
        queue(channel).declare()
        connection.Producer().publish({"n": 1}, exchange=queue.exchange, routing_key=name)
        received: list[object] = []
        consumer = connection.Consumer([queue], callbacks=[lambda body, message: received.append(body)],
                                       accept=["json"])
        consumer.qos(prefetch_count=1)
        consumer.consume()
        connection.drain_events(timeout=5)
        assert received == [{"n": 1}]
        tags[:] = list(channel.qos._delivered)
        assert len(tags) == 1  # held, not acknowledged (acks_late)

        # collect() after a half-failed channel close: pools gone, transport detached.
        channel._disconnect_pools()
        connection._do_close_transport()
        channel.close()  # kombu 5.7.0: AttributeError -> "Unrecoverable error" in a worker

        with Connection(redis_url) as check:
            other: Any = check.default_channel
            held = other.client.hexists(other.unacked_key, tags[0])
            assert held  # still in Redis: put back on the queue after the visibility timeout
    finally:
        with Connection(redis_url) as cleanup:
            last: Any = cleanup.default_channel
            queue(last).delete()
            for tag in tags:
                last.qos._remove_from_indices(tag).execute()
    assert settings.CELERY_BROKER_CONNECTION_MAX_RETRIES is None  # and it reconnects for ever
