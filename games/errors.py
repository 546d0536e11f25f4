"""Refusals the match services raise besides the engine's: they carry their HTTP status so the
API's one exception handler can map them, without the services importing the API layer."""

from rest_framework import exceptions, status


class Conflict(exceptions.APIException):
    """The client acted on a stale version: nothing changed. Extra keywords become details."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "stale_version"
    default_detail = "The match has changed since it was loaded: reload it and try again."

    def __init__(self, detail=None, **details):
        super().__init__(detail)
        self.details = details
