"""Live updates: a committed write tells the streams, in every web process, that a match moved.

A notice is small (`{"match", "version", "status", "to_act", "types"}`): a stream reads what it
shows from the database, so a notice that is lost or late costs time, never correctness. With
`LIVE_REDIS_URL` set, notices go through Redis pub/sub: each web process keeps one subscription
(a pattern over every channel) and hands the notices to its own streams. Without it (the
embedded mode), notices go straight to the streams of this one process.

Each process also looks, every STREAM_LOOK_SECONDS, at the versions of every match its streams
follow and at the open matches of every account it streams to, in one query each, and makes up
the notices that never came (a publish that failed, a subscription that was down): a few small
queries per process, whatever the number of streams.

Access that ends ends the streams it opened: a token logged out or revoked, or an account
deactivated, publishes a notice on the account's `access` channel once committed
(accounts.streams), and every STREAM_TOKEN_LOOK_SECONDS each process checks, in one query, that
the tokens of its open streams are still good (expired ones, and any notice lost with Redis
away). An account keeps at most STREAM_MAX_PER_ACCOUNT streams open: one more ends its oldest,
wherever it is (Redis keeps each account's streams by when they opened; with Redis away, each
process counts its own). A stream that ends so says why in its last message, and its client does
not reconnect.
"""

import asyncio
import functools
import json
import logging
import secrets
import threading
import time
import urllib.parse
from collections.abc import Iterable

import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError, close_old_connections
from django.utils.module_loading import import_string
from redis import asyncio as aioredis

from games import selectors

logger = logging.getLogger(__name__)

RECONNECT_SECONDS = 1.0
# How long an account's stream counts towards its cap in Redis: entries a stream could not take
# out as it ended (its process died) are dropped by then (meanwhile they are the oldest, the
# first told to end, which costs nothing).
ACCOUNT_STREAMS_SECONDS = 24 * 3600
# How long a client waits before it reconnects to a stream the server ended because it is
# stopping (SSE's `retry` field and the `restarting` event say so).
RESTART_RETRY_MS = 2000


class Stopping(Exception):
    """The web process is stopping: its streams end, with a hint to come back."""


class Ended(Exception):
    """The stream ends for good (`reason`: `revoked`, its access ended; `too_many_streams`, its
    account opened one more): its client must not reconnect."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def prefix() -> str:
    """Redis pub/sub ignores the database number; the channels carry it, so that deployments
    sharing one Redis on different databases (as their keys do) do not hear each other."""
    database = urllib.parse.urlsplit(settings.LIVE_REDIS_URL).path.strip("/") or "0"
    return f"cardtable:{database}:"


def match_channel(match_id: int) -> str:
    return f"{prefix()}match:{match_id}"


def user_channel(user_id: int) -> str:
    return f"{prefix()}user:{user_id}"


def access_channel(user_id: int) -> str:
    """Where the end of an account's access (one token, or all of them) is told."""
    return f"{prefix()}access:{user_id}"


def account_streams_key(user_id: int) -> str:
    return f"{prefix()}streams:{user_id}"


def access_ended(user_id: int, token_id: int | None = None) -> None:
    """Every stream opened with this token (None: with any token of the account) ends."""
    publish(access_channel(user_id), {"ended": "revoked", "token": token_id})


class Subscription:
    """One stream's notices, from any of its channels, on its event loop."""

    def __init__(self, hub: "Hub", user: int | None = None, token: int | None = None):
        self.hub = hub
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[dict] = asyncio.Queue()
        self.channels: set[str] = set()
        self.user, self.token = user, token
        self.id = secrets.token_hex(8)  # among the account's streams, in every process

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
            _forget(self.hub.tokens, self.token, self)
            _forget(self.hub.accounts, self.user, self)
        if self.token is not None and settings.LIVE_REDIS_URL:
            self.hub.in_background(self.hub.uncount(self))

    def deliver(self, notice: dict) -> None:
        if notice.get("token") not in (None, self.token) \
                or notice.get("stream") not in (None, self.id):
            return  # another token, or another stream, of the account ended
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
        if "ended" in notice:
            raise Ended(notice["ended"])
        return notice


def _forget(registry: dict, key, subscription: Subscription) -> None:
    if key in registry:
        registry[key] = [s for s in registry[key] if s is not subscription]
        if not registry[key]:
            del registry[key]


class Hub:
    """The streams of this process by channel. Notices may arrive from any thread."""

    def __init__(self):
        self.subscribers: dict[str, set[Subscription]] = {}
        self.known: dict[str, int] = {}  # a match channel's latest version told
        # The streams of each token, and of each account oldest first (tokenless ones aside).
        self.tokens: dict[int, list[Subscription]] = {}
        self.accounts: dict[int, list[Subscription]] = {}
        self.lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: dict[str, asyncio.Task] = {}
        self.background: set[asyncio.Task] = set()
        self.client: aioredis.Redis | None = None
        self.stopping = False

    def subscribe(self, channels: Iterable[str], user: int | None = None,
                  token: int | None = None) -> Subscription:
        """A stream's subscription; with `user` and `token`, one that ends with that access, and
        that ends the account's oldest stream here when there would be too many."""
        subscription = Subscription(self, user, token)
        subscription.listen(channels)
        oldest = []
        if token is not None:
            subscription.listen([access_channel(user)])
            with self.lock:
                self.tokens.setdefault(token, []).append(subscription)
                mine = self.accounts.setdefault(user, [])
                mine.append(subscription)
                while len(mine) > settings.STREAM_MAX_PER_ACCOUNT:
                    oldest.append(mine.pop(0))
        for stream in oldest:
            stream.deliver({"ended": "too_many_streams"})
        if self.stopping:
            subscription.deliver({"stopping": True})
        self._run()
        if token is not None and settings.LIVE_REDIS_URL:
            self.in_background(self.count(subscription))
        return subscription

    def in_background(self, work) -> None:
        """`work` run on the streams' loop, kept until done (a task nobody holds may vanish)."""
        try:
            task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:  # no loop any more: the process is stopping
            work.close()
            return
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def count(self, subscription: Subscription) -> None:
        """The account's streams in every process, by when they opened: beyond
        STREAM_MAX_PER_ACCOUNT the oldest end, wherever they are. Each takes itself out as it
        ends: one whose notice was lost (Redis reconnecting) is told again at the next open."""
        key, user, now = account_streams_key(subscription.user), subscription.user, time.time()
        try:
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.zadd(key, {subscription.id: now})
                pipe.zremrangebyscore(key, "-inf", now - ACCOUNT_STREAMS_SECONDS)
                pipe.zrange(key, 0, -(settings.STREAM_MAX_PER_ACCOUNT + 1))
                pipe.expire(key, ACCOUNT_STREAMS_SECONDS)
                *_, over, _ = await pipe.execute()
            for stream in over:
                await self.client.publish(access_channel(user), json.dumps(
                    {"ended": "too_many_streams", "stream": stream.decode()}))
        except (redis.RedisError, OSError) as error:
            logger.warning("live streams: could not count the account's streams (%s)", error)

    async def uncount(self, subscription: Subscription) -> None:
        try:
            await self.client.zrem(account_streams_key(subscription.user), subscription.id)
        except (redis.RedisError, OSError) as error:
            logger.warning("live streams: could not count the account's streams (%s)", error)

    def end_tokens(self, token_ids: Iterable[int]) -> None:
        """The streams of these tokens end (their access is gone)."""
        with self.lock:
            ended = [s for t in token_ids for s in self.tokens.get(t, ())]
        for subscription in ended:
            subscription.deliver({"ended": "revoked"})

    def stop(self) -> None:
        """The process is stopping: every stream here ends now (the server would otherwise
        wait for them), and any opened from now on ends at once."""
        self.stopping = True
        self.resync({"stopping": True})

    def _run(self) -> None:
        """The process's look, and its Redis subscription, running on the streams' loop."""
        loop = asyncio.get_running_loop()
        if loop is not self.loop:
            self.loop, self.tasks, self.client = loop, {}, None
        if settings.LIVE_REDIS_URL and self.client is None:
            timeout = settings.BROKER_TIMEOUT_SECONDS
            self.client = aioredis.from_url(settings.LIVE_REDIS_URL, socket_timeout=timeout,
                                            socket_connect_timeout=timeout)
        wanted = {"look": self._look, "tokens": self._look_at_tokens,
                  **({"listen": self._listen} if settings.LIVE_REDIS_URL else {})}
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

    def _followed(self, kind: str) -> dict[int, str]:
        """The channels of this kind (`match`, `user`) that streams here follow, by id."""
        start = f"{prefix()}{kind}:"
        with self.lock:
            return {int(c.removeprefix(start)): c for c in self.subscribers if c.startswith(start)}

    async def _look(self) -> None:
        read = sync_to_async(_notices, thread_sensitive=False)
        while self.subscribers:
            await asyncio.sleep(settings.STREAM_LOOK_SECONDS)
            matches, accounts = self._followed("match"), self._followed("user")
            if not matches and not accounts:
                continue
            try:
                notices, seats = await read(list(matches), list(accounts))
            except DatabaseError as error:
                logger.warning("live notices: could not look at the matches (%s)", error)
                continue
            for notice in notices:
                channel = matches[notice["match"]]
                if notice["version"] > self.known.get(channel, 0):
                    self.dispatch(channel, notice)
            for seat in seats:  # a match an account stream has not heard of: as its seat notice
                with self.lock:
                    streams = list(self.subscribers.get(accounts[seat["user"]], ()))
                for subscription in streams:
                    if match_channel(seat["match"]) not in subscription.channels:
                        subscription.deliver(seat)

    async def _look_at_tokens(self) -> None:
        """The tokens of the streams here, checked in one query: those gone end their streams
        (expired, or revoked while their notice was lost)."""
        read = sync_to_async(_good_tokens, thread_sensitive=False)
        while self.subscribers:
            await asyncio.sleep(settings.STREAM_TOKEN_LOOK_SECONDS)
            with self.lock:
                followed = list(self.tokens)
            if not followed:
                continue
            try:
                good = await read(followed)
            except DatabaseError as error:
                logger.warning("live streams: could not look at their tokens (%s)", error)
                continue
            self.end_tokens(set(followed) - good)

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


def _notices(match_ids: list[int], user_ids: list[int]) -> tuple[list[dict], list[dict]]:
    try:
        return (selectors.match_notices(match_ids) if match_ids else [],
                selectors.seat_notices(user_ids) if user_ids else [])
    finally:
        close_old_connections()


def _good_tokens(token_ids: list[int]) -> set[int]:
    try:
        return import_string(settings.STREAM_TOKENS_GOOD)(token_ids)
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
