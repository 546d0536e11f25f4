from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models

from accounts import names


class User(AbstractUser):
    """A player or a member of staff. Guests are created by one API call, with a generated name
    and no usable password: their token is their only credential, until they register the same
    account (POST auth/upgrade/). People read an account's display name, or its username when it
    has none (`name`)."""

    is_guest = models.BooleanField(default=False)
    display_name = models.CharField(
        max_length=names.MAX_LENGTH, blank=True,
        help_text="what other players read; empty: the username (accounts.names says what a "
        "name may be)")
    # What each name reads as (accounts.names.fingerprint), kept by save(): no two accounts
    # hold one key ("": none).
    username_key = models.CharField(max_length=64, blank=True, editable=False)
    name_key = models.CharField(max_length=64, blank=True, editable=False)

    KEYED = {"username": "username_key", "display_name": "name_key"}

    class Meta(AbstractUser.Meta):
        constraints = [
            models.UniqueConstraint(fields=[key], condition=~models.Q(**{key: ""}),
                                    name=f"user_unique_{key}")
            for key in ("username_key", "name_key")
        ]

    @property
    def name(self) -> str:
        return self.display_name or self.username

    def save(self, *args, **kwargs):
        self.username_key = names.fingerprint(self.username)
        self.name_key = names.fingerprint(self.display_name) if self.display_name else ""
        fields = kwargs.get("update_fields")
        if fields is not None:
            kwargs["update_fields"] = {*fields, *(k for f, k in self.KEYED.items() if f in fields)}
        super().save(*args, **kwargs)


class AuthToken(models.Model):
    """An API token. The key goes to the client once and is never stored: only its SHA-256
    (accounts.tokens explains why that hash). An account has one token per signed-in client."""

    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key, in hex")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="auth_tokens")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"token {self.pk} of user {self.user_id}"


class StreamTicket(models.Model):
    """A short-lived, single-use stand-in for a token in a stream's URL: a browser's EventSource
    cannot send headers. Only the key's SHA-256 is kept, as for tokens. A ticket stands for the
    token it was asked with, and goes with it: once that token is revoked it opens nothing."""

    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key, in hex")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="stream_tickets")
    token = models.ForeignKey(AuthToken, on_delete=models.CASCADE, related_name="stream_tickets")
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"stream ticket {self.pk} of user {self.user_id}"
