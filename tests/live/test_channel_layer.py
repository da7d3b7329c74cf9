"""The Redis channel layer keeps a quiet WebSocket open (no socket read timeout inside the
layer's own blocking wait for a message)."""

from channels_redis.core import RedisChannelLayer
from channels_redis.utils import create_pool

from config.settings.base import redis_channel_layer


def test_the_redis_layer_reads_longer_than_it_waits_for_a_message():
    """redis-py 8's default 5 s read timeout equals channels_redis's 5 s BZPOPMIN: a
    projector with no answer for 5 s had its read time out and daphne closed the socket."""
    config = redis_channel_layer("redis://127.0.0.1:6379/8", "test")
    layer = RedisChannelLayer(**config["CONFIG"])
    pool = create_pool(layer.hosts[0])
    assert pool.make_connection().socket_timeout > layer.brpop_timeout + 5
