"""The one token check of the API, for every endpoint: DRF's token scheme (`Authorization: Token
<key>`), the key and its user read in one written-out query (games.sql), nothing cached: a deleted
token or a deactivated user is refused at once."""

from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions

from games import sql


class TokenAuthentication(authentication.TokenAuthentication):
    # What requests use of the user; any other field loads on first use, as a deferred one does.
    USER_FIELDS = ("id", "username", "is_active", "is_staff", "is_superuser", "is_guest")

    def authenticate_credentials(self, key):
        user = sql.token_user(self.get_model(), key, self.USER_FIELDS)
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, self.get_model()(key=key, user=user)  # request.auth: the key and its user
