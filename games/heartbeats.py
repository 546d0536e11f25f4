"""When the sweep and each queue's workers were last alive, in Redis keys that expire on their
own: beat and the workers write them (bots), readiness reads them (games.api.health). Not needed
for correctness: with Redis gone, readiness says Redis is unreachable. Without a broker (the
embedded mode) there is nothing to record."""

import logging
import threading
import time

import redis
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
