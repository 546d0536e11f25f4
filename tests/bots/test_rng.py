"""The server's turns draw from a generator a player cannot rebuild: the same turn repeats
under the same secret, and what players know of a turn (match, seed hash, version) is not
enough to seed it."""

import random

import pytest

import bots.tasks
from bots.rng import turn_rng
from games import hooks, sql
from tests.matchplay import bots as bot_seats
from tests.matchplay import create, new_player

SEED_HASH = "4f5401a2" * 8


def draws(rng: random.Random) -> list[float]:
    return [rng.random() for _ in range(8)]


def test_the_same_turn_under_the_same_secret_draws_the_same_numbers():
    assert draws(turn_rng(7, SEED_HASH, 12)) == draws(turn_rng(7, SEED_HASH, 12))


def test_another_match_version_or_deal_draws_others():
    first = draws(turn_rng(7, SEED_HASH, 12))
    assert first != draws(turn_rng(8, SEED_HASH, 12))
    assert first != draws(turn_rng(7, SEED_HASH, 13))
    assert first != draws(turn_rng(7, "0" * 64, 12))


def test_what_players_know_of_a_turn_does_not_seed_it(settings):
    known = draws(turn_rng(7, SEED_HASH, 12))
    assert known != draws(random.Random(f"{SEED_HASH}:12"))  # the seed public data once gave
    settings.SECRET_KEY = "another server's secret " * 3
    assert known != draws(turn_rng(7, SEED_HASH, 12))


@pytest.mark.django_db(transaction=True)
def test_a_bot_turn_draws_from_its_turns_generator(monkeypatch):
    queued, seeded = [], []
    monkeypatch.setattr(hooks, "announce_server_turn", lambda *job, **_: queued.append(job))

    def recorded(*turn):
        seeded.append(turn)
        return turn_rng(*turn)

    monkeypatch.setattr(bots.tasks, "turn_rng", recorded)
    player = new_player()
    view = create(player, "gandengyan", {}, bot_seats(3))
    for _ in range(30):  # until two server turns come in a row
        while not queued:
            view = player.post(f"/matches/{view['id']}/act/", {
                "expected_version": view["version"], "action": view["legal_actions"][0]})[1]
        match_id, version = queued.pop()
        seed_hash = sql.match_row(match_id).seed_hash
        seeded.clear()
        played = bots.tasks.play_server_turns(match_id, version, turns=2)
        # Turns played in a row (one write) draw as if each were written alone.
        assert [turn[2] for turn in seeded] == [version + k for k in range(played)]
        assert seeded[0] == (match_id, seed_hash, version)
        if played == 2:
            return
        view = player.get(f"/matches/{match_id}/")[1]
    pytest.fail("no two server turns in a row")
