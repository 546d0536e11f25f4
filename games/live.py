"""Live updates: a committed write tells the streams, in every web process, that a match moved.

A notice is small (`{"match", "version", ...}`): a stream reads what it shows from the database,
so a notice that is lost or late costs time, never correctness (streams also look every few
seconds). With `LIVE_REDIS_URL` set, notices go through Redis pub/sub: each web process keeps one
subscription (a pattern over every channel) and hands the notices to its own streams. Without
it (the embedded mode), notices go straight to the streams of this one process.
"""

import asyncio
import json
import logging
import threading
from collections.abc import Iterable

import redis
from django.conf import settings
from redis import asyncio as aioredis

logger = logging.getLogger(__name__)

PREFIX = "cardtable:"
RECONNECT_SECONDS = 1.0


def match_channel(match_id: int) -> str:
    return f"{PREFIX}match:{match_id}"


def user_channel(user_id: int) -> str:
    return f"{PREFIX}user:{user_id}"


class Subscription:
    """One stream's notices, from any of its channels, on its event loop."""

    def __init__(self, hub: "Hub"):
        self.hub = hub
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[dict] = asyncio.Queue()
        self.channels: set[str] = set()

    def listen(self, channels: Iterable[str]) -> None:
        with self.hub.lock:
            for channel in channels:
                if channel not in self.channels:
                    self.channels.add(channel)
                    self.hub.subscribers.setdefault(channel, set()).add(self)

    def close(self) -> None:
        with self.hub.lock:
            for channel in self.channels:
                subscribers = self.hub.subscribers.get(channel, set())
                subscribers.discard(self)
                if not subscribers:
                    self.hub.subscribers.pop(channel, None)

    def deliver(self, notice: dict) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, notice)

    async def next(self, timeout: float) -> dict | None:
        """The next notice, or None after `timeout` seconds without one."""
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None


class Hub:
    """The streams of this process by channel. Notices may arrive from any thread."""

    def __init__(self):
        self.subscribers: dict[str, set[Subscription]] = {}
        self.lock = threading.Lock()
        self.listener: asyncio.Task | None = None

    def subscribe(self, channels: Iterable[str]) -> Subscription:
        subscription = Subscription(self)
        subscription.listen(channels)
        if settings.LIVE_REDIS_URL and (self.listener is None or self.listener.done()):
            self.listener = asyncio.get_running_loop().create_task(self._listen())
        return subscription

    def dispatch(self, channel: str, notice: dict) -> None:
        with self.lock:
            subscribers = list(self.subscribers.get(channel, ()))
        for subscription in subscribers:
            subscription.deliver(notice)

    def resync(self) -> None:
        """Every stream of this process looks for itself: notices may have been missed."""
        with self.lock:
            subscribers = {s for group in self.subscribers.values() for s in group}
        for subscription in subscribers:
            subscription.deliver({"resync": True})

    async def _listen(self) -> None:
        """This process's one Redis subscription, for as long as it has streams; reconnects
        after a failure (the streams' own checks cover the notices missed meanwhile)."""
        while self.subscribers:
            try:
                client = aioredis.from_url(settings.LIVE_REDIS_URL)
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(PREFIX + "*")
                    self.resync()  # whatever was published before this subscription began
                    async for message in pubsub.listen():
                        if message["type"] == "pmessage":
                            self.dispatch(message["channel"].decode(),
                                          json.loads(message["data"]))
                        if not self.subscribers:
                            break
            except (redis.RedisError, OSError) as error:
                logger.warning("live notices: Redis subscription lost (%s); reconnecting", error)
                await asyncio.sleep(RECONNECT_SECONDS)


HUB = Hub()
_publisher = threading.local()


def _redis() -> redis.Redis:
    client = getattr(_publisher, "client", None)
    if client is None:
        timeout = settings.BROKER_TIMEOUT_SECONDS
        client = _publisher.client = redis.Redis.from_url(
            settings.LIVE_REDIS_URL, socket_timeout=timeout, socket_connect_timeout=timeout)
    return client


def publish(channel: str, notice: dict) -> None:
    """Tell every stream listening on `channel`, in every process; never raises (a stream that
    misses a notice finds the change at its next look)."""
    if not settings.LIVE_REDIS_URL:
        HUB.dispatch(channel, notice)
        return
    try:
        _redis().publish(channel, json.dumps(notice))
    except (redis.RedisError, OSError) as error:
        logger.warning("live notice on %s not sent: %s", channel, error)
