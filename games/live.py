"""Live updates: a committed write tells the streams, in every web process, that a match moved.

A notice is small (`{"match", "version", "status", "to_act", "types"}`): a stream reads what it
shows from the database, so a notice that is lost or late costs time, never correctness. With
`LIVE_REDIS_URL` set, notices go through Redis pub/sub: each web process keeps one subscription
(a pattern over every channel) and hands the notices to its own streams. Without it (the
embedded mode), notices go straight to the streams of this one process.

Each process also looks, every STREAM_LOOK_SECONDS, at the versions of every match its streams
follow, in one query, and makes up the notices that never came (a publish that failed, a
subscription that was down): one small query per process, whatever the number of streams.
"""

import asyncio
import functools
import json
import logging
import threading
import urllib.parse
from collections.abc import Iterable

import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError, close_old_connections
from redis import asyncio as aioredis

from games import selectors

logger = logging.getLogger(__name__)

RECONNECT_SECONDS = 1.0
# How long a client waits before it reconnects to a stream the server ended because it is
# stopping (SSE's `retry` field and the `restarting` event say so).
RESTART_RETRY_MS = 2000


class Stopping(Exception):
    """The web process is stopping: its streams end, with a hint to come back."""


def prefix() -> str:
    """Redis pub/sub ignores the database number; the channels carry it, so that deployments
    sharing one Redis on different databases (as their keys do) do not hear each other."""
    database = urllib.parse.urlsplit(settings.LIVE_REDIS_URL).path.strip("/") or "0"
    return f"cardtable:{database}:"


def match_channel(match_id: int) -> str:
    return f"{prefix()}match:{match_id}"


def user_channel(user_id: int) -> str:
    return f"{prefix()}user:{user_id}"


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
                    self.hub.known.pop(channel, None)

    def deliver(self, notice: dict) -> None:
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, notice)
        except RuntimeError:  # its loop is closed: the stream is gone
            pass

    async def next(self, timeout: float) -> dict | None:
        """The next notice, or None after `timeout` seconds without one; Stopping when the
        process is stopping."""
        try:
            notice = await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None
        if notice.get("stopping"):
            raise Stopping()
        return notice


class Hub:
    """The streams of this process by channel. Notices may arrive from any thread."""

    def __init__(self):
        self.subscribers: dict[str, set[Subscription]] = {}
        self.known: dict[str, int] = {}  # a match channel's latest version told
        self.lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: dict[str, asyncio.Task] = {}
        self.stopping = False

    def subscribe(self, channels: Iterable[str]) -> Subscription:
        subscription = Subscription(self)
        subscription.listen(channels)
        if self.stopping:
            subscription.deliver({"stopping": True})
        self._run()
        return subscription

    def stop(self) -> None:
        """The process is stopping: every stream here ends now (the server would otherwise
        wait for them), and any opened from now on ends at once."""
        self.stopping = True
        self.resync({"stopping": True})

    def _run(self) -> None:
        """The process's look, and its Redis subscription, running on the streams' loop."""
        loop = asyncio.get_running_loop()
        if loop is not self.loop:
            self.loop, self.tasks = loop, {}
        wanted = {"look": self._look, **({"listen": self._listen}
                                        if settings.LIVE_REDIS_URL else {})}
        for name, run in wanted.items():
            if name not in self.tasks or self.tasks[name].done():
                self.tasks[name] = loop.create_task(run())

    def dispatch(self, channel: str, notice: dict) -> None:
        with self.lock:
            if "version" in notice and channel in self.subscribers:
                self.known[channel] = max(notice["version"], self.known.get(channel, 0))
            subscribers = list(self.subscribers.get(channel, ()))
        for subscription in subscribers:
            subscription.deliver(notice)

    def resync(self, notice: dict | None = None) -> None:
        """Every stream of this process looks for itself (notices may have been missed), or
        hears `notice`."""
        with self.lock:
            subscribers = {s for group in self.subscribers.values() for s in group}
        for subscription in subscribers:
            subscription.deliver(notice or {"resync": True})

    async def _look(self) -> None:
        read = sync_to_async(_match_notices, thread_sensitive=False)
        while self.subscribers:
            await asyncio.sleep(settings.STREAM_LOOK_SECONDS)
            matches = prefix() + "match:"
            with self.lock:
                channels = {int(c.removeprefix(matches)): c for c in self.subscribers
                            if c.startswith(matches)}
            if not channels:
                continue
            try:
                notices = await read(list(channels))
            except DatabaseError as error:
                logger.warning("live notices: could not look at the matches (%s)", error)
                continue
            for notice in notices:
                channel = channels[notice["match"]]
                if notice["version"] > self.known.get(channel, 0):
                    self.dispatch(channel, notice)

    async def _listen(self) -> None:
        """This process's one Redis subscription, for as long as it has streams; reconnects
        after a failure (the look covers the notices missed meanwhile)."""
        while self.subscribers:
            try:
                client = aioredis.from_url(settings.LIVE_REDIS_URL)
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(prefix() + "*")
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


def _match_notices(match_ids: list[int]) -> list[dict]:
    try:
        return selectors.match_notices(match_ids)
    finally:
        close_old_connections()


HUB = Hub()


@functools.cache
def _redis() -> redis.Redis:
    """The process's publishing client, shared by its threads (redis-py's pool is thread-safe):
    under ASGI every request runs in a thread of its own, and a client per thread was a new
    connection per act."""
    timeout = settings.BROKER_TIMEOUT_SECONDS
    return redis.Redis.from_url(settings.LIVE_REDIS_URL, socket_timeout=timeout,
                                socket_connect_timeout=timeout)


def publish(channel: str, notice: dict) -> None:
    """Tell every stream listening on `channel`, in every process; never raises (a stream that
    misses a notice hears of the change at its process's next look)."""
    if not settings.LIVE_REDIS_URL:
        HUB.dispatch(channel, notice)
        return
    try:
        _redis().publish(channel, json.dumps(notice))
    except (redis.RedisError, OSError) as error:
        logger.warning("live notice on %s not sent: %s", channel, error)
