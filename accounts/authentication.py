"""The one token check of the API, for every endpoint: `Authorization: Token <key>`, the key's
hash, its token's expiry and its user read in one written-out query (games.sql), nothing cached:
a revoked token or a deactivated user is refused at once. A view that reads one match first (its
`match_row(match_id, reader)`, the match's id in its URL) has the token read in that same query,
and finds the match on the request (`request.match_row`): a match's view or act costs one query
less."""

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

    def authenticate(self, request):
        self.request = request  # DRF makes an authenticator per request
        return super().authenticate(request)

    def authenticate_credentials(self, key):
        digest = tokens.digest(key)
        row = self._match_row(digest)
        if row is None:
            token = sql.token_user(AuthToken, digest, self.USER_FIELDS)
        else:
            token = row.token
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        token.digest = digest  # the key sent: a rotation replaces this one only
        if token.expires_at <= timezone.now():
            raise exceptions.AuthenticationFailed(
                "The token has expired: sign in again.", code="token_expired")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        if row is not None:
            self.request.match_row = row
        return token.user, token  # request.auth: the token (id, user, expiry)

    def _match_row(self, digest: str) -> sql.MatchRow | None:
        """The match the view reads first, read with the token; None if the view reads none or
        there is no such match (the view answers that)."""
        context = getattr(self.request, "parser_context", None) or {}  # a stream: a plain request
        read = getattr(context.get("view"), "match_row", None)
        match_id = context.get("kwargs", {}).get("match_id")
        if read is None or match_id is None:
            return None
        return read(match_id, sql.Reader(AuthToken, digest, self.USER_FIELDS))


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
