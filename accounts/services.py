"""The accounts' writes that names take part in: a display name set, and whether a name is free
(accounts.names says when two names are the same)."""

from django.db import IntegrityError, transaction
from django.db.models import Q

from accounts import names
from accounts.models import User


def name_free(name: str, user: User | None = None) -> bool:
    """Whether no account but `user` holds `name`'s key, as its username or display name."""
    key = names.fingerprint(name)
    holders = User.objects.filter(Q(username_key=key) | Q(name_key=key))
    if user is not None:
        holders = holders.exclude(pk=user.pk)
    return not holders.exists()


def display_name_set(user: User, raw) -> User:
    """`user`'s display name becomes `raw` (cleaned), or is refused: NameRefused (not a name, or
    a reserved one), NameTaken (another account's name, or one that looks like it)."""
    name = names.display_name(raw)
    if not name_free(name, user):
        raise names.NameTaken()
    user.display_name = name
    try:
        with transaction.atomic():  # the check above can lose a race with another account
            user.save(update_fields=["display_name"])
    except IntegrityError as err:
        raise names.NameTaken() from err
    return user
