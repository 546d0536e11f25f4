"""API tokens: issued, rotated, revoked. A client gets a random key once; the database keeps only
its SHA-256.

A fast hash is the right one here: the key is 256 random bits, so its hash cannot be reversed by
guessing however many hashes a second an attacker computes. Slow password hashes (PBKDF2,
Argon2) exist for low-entropy secrets people choose, and would add their delay to every request.
"""

import hashlib
import secrets
from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import AuthToken, StreamTicket

KEY_BYTES = 32


class Issued(NamedTuple):
    key: str  # what the client sends; nowhere else after this
    token: AuthToken


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def lifetime() -> timedelta:
    return timedelta(days=settings.TOKEN_TTL_DAYS)


def issue(user) -> Issued:
    """A new token for `user`; the account's expired tokens are deleted on the way."""
    now = timezone.now()
    key = secrets.token_urlsafe(KEY_BYTES)
    token = AuthToken.objects.create(user=user, digest=digest(key), expires_at=now + lifetime())
    AuthToken.objects.filter(user=user, expires_at__lte=now).delete()
    return Issued(key, token)


def revoke(token: AuthToken) -> bool:
    """Whether this call deleted the token (False: it was gone already)."""
    deleted, _ = AuthToken.objects.filter(pk=token.pk).delete()
    return deleted > 0


def revoke_all(user, keep: AuthToken | None = None) -> None:
    """Every token of `user` stops working, but `keep` if given."""
    AuthToken.objects.filter(user=user).exclude(pk=getattr(keep, "pk", None)).delete()


def rotate(token: AuthToken) -> Issued | None:
    """A new key and expiry for `token`, whose key stops working; None if `token` was revoked
    or rotated meanwhile (two refreshes of one token: only one gets a successor). The token
    stays the same row: what the same client opened with it (its live streams) goes on."""
    now = timezone.now()
    key = secrets.token_urlsafe(KEY_BYTES)
    if not AuthToken.objects.filter(pk=token.pk, digest=token.digest).update(
            digest=digest(key), created_at=now, expires_at=now + lifetime()):
        return None
    return Issued(key, AuthToken.objects.get(pk=token.pk))


TICKET_SECONDS = 30


def good(token_ids: list[int]) -> set[int]:
    """Those of these tokens that still open anything: not revoked, not expired, their account
    active (the live streams look at theirs with this, settings.STREAM_TOKENS_GOOD)."""
    return set(AuthToken.objects.filter(pk__in=token_ids, expires_at__gt=timezone.now(),
                                        user__is_active=True).values_list("pk", flat=True))


def ticket_issue(token: AuthToken) -> str:
    """A stream ticket's key for `token`'s account: good for one stream opened within
    TICKET_SECONDS, while the token is."""
    now = timezone.now()
    key = secrets.token_urlsafe(KEY_BYTES)
    StreamTicket.objects.create(user_id=token.user_id, token=token, digest=digest(key),
                                expires_at=now + timedelta(seconds=TICKET_SECONDS))
    StreamTicket.objects.filter(expires_at__lte=now).delete()
    return key


def ticket_redeem(key: str) -> AuthToken | None:
    """The token a ticket's key stands for (its user loaded), once: the ticket is gone after
    this call; None for an unknown, used or expired key, or one whose token has expired or
    whose account is inactive (a revoked token took its tickets with it)."""
    with transaction.atomic():
        ticket = (StreamTicket.objects.select_for_update().select_related("token__user")
                  .filter(digest=digest(key)).first())
        if ticket is None:
            return None
        ticket.delete()
    now, token = timezone.now(), ticket.token
    if ticket.expires_at <= now or token.expires_at <= now or not token.user.is_active:
        return None
    return token
