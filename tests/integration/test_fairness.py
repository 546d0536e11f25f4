"""Worker fairness (issue 21): on one worker, five busy unattended matches never make a person
wait for the bots' replies much beyond the pace of their match; p99 under 1 s."""

import random

import pytest

from games import services
from tests.integration.fairness import (
    busy_matches,
    percentile,
    person_plays,
    reply_waits,
    server_moves,
)
from tests.matchplay import new_player

pytestmark = pytest.mark.django_db(transaction=True)

PACE_MS = 300
TURNS = 15
# Enough to read a p99 from. A turn brings about two replies, fewer when the bots' passes are
# forced (played in the person's own write) or a round ends: 28 and 13 in two CI runs of 15 turns,
# so the person plays on until there are as many.
REPLIES = 15


def test_a_persons_bot_replies_wait_little_beside_five_busy_matches():
    client = new_player()
    busy = busy_matches(client, 5)
    try:
        before = sum(map(server_moves, busy))
        match_id = person_plays(client, PACE_MS, TURNS, timeout=180, rng=random.Random(21),
                                replies=REPLIES)
        busy_moves = sum(map(server_moves, busy)) - before
    finally:
        for match_id_busy in busy:  # the worker has the next tests to play
            services.match_abort(match_id=match_id_busy, reason="the test is over")
    waits = reply_waits(match_id)
    assert busy_moves >= 50, "the other matches were not busy"
    assert percentile(waits, 0.99) < 1.0, sorted(waits)[-5:]
