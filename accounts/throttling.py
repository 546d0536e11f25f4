"""Throttles for the endpoints that check credentials: per client address, and open when the
cache is down. Guests are made under two buckets instead of a window: one per address, large (a
household or a café behind one address shares it), and one per browser (a signed cookie the
guest endpoint sets), small; a bucket that is empty refills one token at a time, so whoever is
refused waits minutes, not the rest of an hour.

The client address is the connection's, unless it is one of TRUSTED_PROXIES: then the rightmost
X-Forwarded-For address that is not a trusted proxy (the one the outermost trusted proxy saw);
what a client wrote in the header before it counts for nothing, and with no proxy trusted (the
default) the header is ignored.

When the cache (Redis) does not answer, a request is let through and a warning logged: signing
in keeps working, unthrottled, rather than failing for everybody (decision: fail open).
"""

import functools
import ipaddress
import logging
import secrets

from django.conf import settings
from redis.exceptions import RedisError
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

logger = logging.getLogger(__name__)
CACHE_DOWN = (RedisError, OSError)


@functools.cache
def _networks(trusted: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(item, strict=False) for item in trusted)


def _trusted(address: str, networks: tuple) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(request) -> str:
    """Who the request comes from, as TRUSTED_PROXIES says it may be told (see above)."""
    remote = request.META.get("REMOTE_ADDR", "")
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    if not _trusted(remote, networks):
        return remote
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [h for h in hops if h]
    return next((h for h in reversed(hops) if not _trusted(h, networks)),
                hops[0] if hops else remote)


class FailOpen:
    """A throttle that lets the request through when its cache cannot be reached, and that
    counts per client address as TRUSTED_PROXIES says."""

    def get_ident(self, request) -> str:
        return client_address(request)

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


class Bucket(SimpleRateThrottle):
    """A token bucket at the scope's rate ("60/hour": 60 at once, then one every minute); the
    cache keeps each client's tokens and when they were counted."""

    def allow_request(self, request, view) -> bool:
        self.waiting = 0.0
        if self.rate is None or (ident := self.get_cache_key(request, view)) is None:
            return True
        now, per_token = self.timer(), self.duration / self.num_requests
        tokens, counted = self.cache.get(ident, (self.num_requests, now))
        tokens = min(self.num_requests, tokens + (now - counted) / per_token)
        if tokens < 1:
            self.waiting = (1 - tokens) * per_token
            return False
        self.cache.set(ident, (tokens - 1, now), self.duration)
        return True

    def wait(self) -> float:
        return self.waiting


class GuestAddressThrottle(FailOpen, Bucket):
    """New guests per client address."""

    scope = "guest"

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


BROWSER_COOKIE = "cardtable_browser"
BROWSER_SALT = "accounts.throttling.browser"


class GuestBrowserThrottle(FailOpen, Bucket):
    """New guests per browser, known by the signed cookie `browser_cookie` sets; a client without
    it is counted by its address only."""

    scope = "guest_browser"

    def get_cache_key(self, request, view) -> str | None:
        browser = request.get_signed_cookie(BROWSER_COOKIE, None, salt=BROWSER_SALT)
        if browser is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": browser}


def browser_cookie(request, response) -> None:
    """Give the browser a name of its own for the guest throttle, unless it has one."""
    if request.get_signed_cookie(BROWSER_COOKIE, None, salt=BROWSER_SALT) is None:
        response.set_signed_cookie(
            BROWSER_COOKIE, secrets.token_urlsafe(16), salt=BROWSER_SALT,
            max_age=365 * 24 * 3600, httponly=True, samesite="Lax", secure=not settings.DEBUG,
            path="/api/v1/auth/")
