"""The randomness of the server's turns. Each turn's generator is seeded with an HMAC of the
match, its round's seed hash and the version, under a key derived from SECRET_KEY: the same turn
always draws the same numbers (a repeated delivery chooses the same action; tests and replays
with the same secret repeat), while players, who know all three but not the key, cannot foresee
a `random` or `normal` bot's choice."""

import random

from django.utils.crypto import salted_hmac

SALT = "bots.rng.turn"


def turn_rng(match_id: int, seed_hash: str | None, version: int) -> random.Random:
    digest = salted_hmac(SALT, f"{match_id}:{seed_hash}:{version}", algorithm="sha256")
    return random.Random(digest.digest())
