"""Refusals of the match services besides the engine's, transport-free: each has its code, and
the API's one table of codes (games/api/errors.py) gives its status."""

from games.engine.errors import Refusal


class NotFound(Refusal):
    def __init__(self, message: str = "no such match", **details):
        super().__init__("not_found", message, **details)


class Forbidden(Refusal):
    def __init__(self, message: str, **details):
        super().__init__("forbidden", message, **details)


class Conflict(Refusal):
    """The request does not fit the match as it is now: nothing changed."""


class StaleVersion(Conflict):
    def __init__(self, **details):
        super().__init__("stale_version", "The match has changed since it was loaded: reload it "
                         "and try again.", **details)


class MatchFull(Conflict):
    def __init__(self):
        super().__init__("match_full", "Every human seat of this match is taken.")
