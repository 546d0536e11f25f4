"""Access that ends ends the live streams it opened, in every web process: a token deleted
(logged out, "everywhere", revoked by staff in the admin, the other tokens of a guest who
upgrades) or an account deactivated is told to the streams once committed (games.live). A
refresh keeps its token's row (accounts.tokens.rotate), and so its streams. Writes that skip
signals (a queryset's `update`) and expiry are caught by the streams' look at their tokens."""

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from accounts.models import AuthToken, User
from games import live


def _token_deleted(sender, instance: AuthToken, **kwargs) -> None:
    user_id, token_id = instance.user_id, instance.pk
    transaction.on_commit(lambda: live.access_ended(user_id, token_id), robust=True)


def _user_saved(sender, instance: User, **kwargs) -> None:
    if not instance.is_active:
        user_id = instance.pk
        transaction.on_commit(lambda: live.access_ended(user_id), robust=True)


def connect() -> None:
    post_delete.connect(_token_deleted, sender=AuthToken, dispatch_uid="accounts.streams.token")
    post_save.connect(_user_saved, sender=User, dispatch_uid="accounts.streams.user")
