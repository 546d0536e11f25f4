from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player or a member of staff. Guests are created by one API call, with a generated name
    and no usable password: their token is their only credential."""

    is_guest = models.BooleanField(default=False)
