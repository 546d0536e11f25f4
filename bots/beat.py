"""Celery beat that sends its schedule only while it holds a lease in Redis: one beat at a time
sends the recovery sweep, however many are started. The others stand by, ask again every third
of a lease, and one takes over within BEAT_LEASE_SECONDS when the holder dies (a stopped beat
gives the lease back at once)."""

import logging
import os
import socket
import uuid

import redis
from celery.beat import PersistentScheduler
from django.conf import settings

from games import coordination

logger = logging.getLogger(__name__)

LEASE_KEY = coordination.PREFIX + "beat:leader"

# Take the lease if it is free, or extend it if it is ours; 1 if we hold it now.
_HOLD = """
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class Lease:
    def __init__(self, seconds: float):
        self.seconds = seconds
        self.me = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.held = False

    def hold(self) -> bool:
        """True while this process holds the lease (taken or extended now); False when another
        does or Redis does not answer (nothing could be sent then anyway)."""
        try:
            held = bool(coordination.client().eval(_HOLD, 1, LEASE_KEY, self.me,
                                                   int(self.seconds * 1000)))
        except (redis.RedisError, OSError) as error:
            logger.warning("beat lease not renewed: %s", error)
            held = False
        if held != self.held:
            logger.warning("beat %s %s the lease: %s", self.me, "holds" if held else "lost",
                           "sending the schedule" if held else "standing by")
        self.held = held
        return held

    def release(self) -> None:
        if self.held:
            try:
                coordination.client().eval(_RELEASE, 1, LEASE_KEY, self.me)
            except (redis.RedisError, OSError):
                pass  # it expires on its own
            self.held = False


class LeaderScheduler(PersistentScheduler):
    def __init__(self, *args, **kwargs):
        self.lease = Lease(settings.BEAT_LEASE_SECONDS)
        super().__init__(*args, **kwargs)

    def tick(self, *args, **kwargs) -> float:
        renew = self.lease.seconds / 3
        if not self.lease.hold():
            return renew
        return min(super().tick(*args, **kwargs), renew)

    def close(self) -> None:
        self.lease.release()
        super().close()
