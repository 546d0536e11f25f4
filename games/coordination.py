"""What the worker processes and beat tell one another through the broker's Redis, in keys that
expire on their own: which server turns are queued (so that one is not queued twice), and when
the sweep and each queue's workers were last alive (readiness reads it). None of it is needed
for correctness: with Redis gone, turns are queued as if nothing were marked, and readiness
says Redis is unreachable. Without a broker (the embedded mode) there is nothing to mark."""

import logging
import threading
import time

import redis
from celery import bootsteps
from django.conf import settings

logger = logging.getLogger(__name__)

PREFIX = "cardtable:"
SWEEP = "sweep"
_local = threading.local()


def client() -> redis.Redis:
    """The broker's Redis, one client per thread."""
    url = settings.CELERY_BROKER_URL
    clients = _local.__dict__.setdefault("clients", {})
    if url not in clients:
        timeout = settings.BROKER_TIMEOUT_SECONDS
        clients[url] = redis.Redis.from_url(url, socket_timeout=timeout,
                                            socket_connect_timeout=timeout)
    return clients[url]


def _queued_key(match_id: int, version: int) -> str:
    return f"{PREFIX}queued:{match_id}:{version}"


def mark_queued(match_id: int, version: int) -> bool:
    """Mark the server turn of `match_id` at `version` as queued; False if it already was (its
    task waits in the queue: do not queue another). True when Redis does not answer."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return True
    try:
        return bool(client().set(_queued_key(match_id, version), 1, nx=True,
                                 ex=max(1, round(settings.TURN_QUEUED_SECONDS))))
    except (redis.RedisError, OSError) as error:
        logger.warning("turn %s@%s: queued mark not set (%s)", match_id, version, error)
        return True


def clear_queued(match_id: int, version: int) -> None:
    """The turn's task started: a later lost turn at this version may be queued again."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    try:
        client().delete(_queued_key(match_id, version))
    except (redis.RedisError, OSError):
        pass  # the mark expires on its own


def _beat_key(name: str) -> str:
    return f"{PREFIX}heartbeat:{name}"


def beat(name: str, keep: float) -> None:
    """Record that `name` (SWEEP, or a queue's name for its workers) is alive now, for `keep`
    seconds."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    try:
        client().set(_beat_key(name), repr(time.time()), ex=max(1, round(keep)))
    except (redis.RedisError, OSError) as error:
        logger.warning("heartbeat %s not recorded: %s", name, error)


def last_beats(names: list[str]) -> dict[str, float | None]:
    """Seconds since each of `names` last beat (None: not within its keep); raises
    redis.RedisError or OSError when Redis does not answer."""
    values = client().mget([_beat_key(name) for name in names])
    now = time.time()
    return {name: None if value is None else max(0.0, now - float(value))
            for name, value in zip(names, values, strict=True)}


class WorkerHeartbeat(bootsteps.StartStopStep):
    """A worker's heartbeat, for each queue it consumes, every WORKER_HEARTBEAT_SECONDS from its
    main process (so a worker frozen or cut off from Redis stops beating)."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker, **kwargs):
        super().__init__(worker, **kwargs)
        self.timer_ref = None

    def start(self, worker) -> None:
        queues = sorted(worker.app.amqp.queues.consume_from or worker.app.amqp.queues)
        every = settings.WORKER_HEARTBEAT_SECONDS
        self.timer_ref = worker.timer.call_repeatedly(every, self.beat_all, (queues, every),
                                                      priority=10)
        self.beat_all(queues, every)

    @staticmethod
    def beat_all(queues: list[str], every: float) -> None:
        for queue in queues:
            beat(queue, keep=10 * every)

    def stop(self, worker) -> None:
        if self.timer_ref is not None:
            self.timer_ref.cancel()
            self.timer_ref = None
