"""Throttles for the endpoints that check credentials: per client address, and open when the
cache is down.

The client address is DRF's: REMOTE_ADDR, or with NUM_PROXIES trusted proxies the address the
outermost one saw; a made-up X-Forwarded-For changes nothing while NUM_PROXIES is 0.
When the cache (Redis) does not answer, a request is let through and a warning logged: signing in
keeps working, unthrottled, rather than failing for everybody (decision: fail open).
"""

import logging

from redis.exceptions import RedisError
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

logger = logging.getLogger(__name__)
CACHE_DOWN = (RedisError, OSError)


class FailOpen:
    """A throttle that lets the request through when its cache cannot be reached."""

    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)
        except CACHE_DOWN as err:
            logger.warning("throttle %s not applied, the cache is unavailable: %r",
                           self.scope, err)
            return True


class SignInThrottle(FailOpen, ScopedRateThrottle):
    """The view's `throttle_scope` (signup, login), per client address."""


class AdminLoginThrottle(FailOpen, SimpleRateThrottle):
    """Login attempts on the admin, per client address (a plain Django request will do)."""

    scope = "admin_login"

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
