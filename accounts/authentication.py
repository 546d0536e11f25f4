"""The one token check of the API, for every endpoint: `Authorization: Token <key>`, the key's
hash, its token's expiry and its user read in one written-out query (games.sql), nothing cached:
a revoked token or a deactivated user is refused at once."""

from django.utils import timezone
from rest_framework import authentication, exceptions

from accounts import tokens
from accounts.models import AuthToken
from games import sql


class TokenAuthentication(authentication.TokenAuthentication):
    model = AuthToken
    # What requests use of the user; any other field loads on first use, as a deferred one does.
    USER_FIELDS = ("id", "username", "display_name", "is_active", "is_staff", "is_superuser",
                   "is_guest")

    def authenticate_credentials(self, key):
        token = sql.token_user(AuthToken, tokens.digest(key), self.USER_FIELDS)
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        token.digest = tokens.digest(key)  # the key sent: a rotation replaces this one only
        if token.expires_at <= timezone.now():
            raise exceptions.AuthenticationFailed(
                "The token has expired: sign in again.", code="token_expired")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return token.user, token  # request.auth: the token (id, user, expiry)


class StreamTicketAuthentication(authentication.BaseAuthentication):
    """`?ticket=<key>` (POST /api/v1/auth/stream-ticket/), for clients that cannot send headers
    when they open a stream (a browser's EventSource). Only the live streams accept it."""

    def authenticate(self, request):
        key = request.GET.get("ticket")
        if key is None:
            return None
        token = tokens.ticket_redeem(key)
        if token is None:
            raise exceptions.AuthenticationFailed(
                "Invalid, used or expired stream ticket, or its token is gone.")
        return token.user, token
