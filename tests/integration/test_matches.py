"""Whole matches through real HTTP only (a live server on PostgreSQL), the bots acting in a real
Celery worker on Redis; the client polls with conditional GETs while the bots think."""

import random

import pytest

from games.models import Match, Move
from scoring.models import ScoreEntry
from tests.matchplay import Client, bots, create, http_sender, play_through, poller, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def player(live_server) -> Client:
    client = Client(http_sender(live_server.url))
    sign_in(client)
    return client


def play_to_the_end(player: Client, ruleset: str, options: dict, bot_count: int, seed: int):
    view = create(player, ruleset, options, bots(bot_count))
    view = play_through(player, view, random.Random(seed), wait=poller(player))
    assert view["status"] == "finished" and view["standings"]
    match = Match.objects.get(pk=view["id"])
    assert Move.objects.filter(match=match, actor="bot").exists()
    for rnd in match.rounds.all():
        assert sum(ScoreEntry.objects.filter(round=rnd).values_list("delta", flat=True)) == 0
    status, rounds = player.get(f"/matches/{view['id']}/rounds/")
    assert status == 200 and all(r["over"] for r in rounds)
    return view, rounds


def test_gandengyan_one_person_three_bots_to_the_end(player):
    view, _ = play_to_the_end(player, "gandengyan", {"starting_score": 20}, 3, seed=1)
    status, detail = player.get(f"/matches/{view['id']}/rounds/1/")
    assert status == 200 and detail["seed"] and detail["settlement"]


def test_510k_one_person_three_bots_two_rounds(player):
    _, rounds = play_to_the_end(player, "510k", {"rounds": 2}, 3, seed=2)
    assert len(rounds) == 2


def test_510k_two_players(player):
    view, rounds = play_to_the_end(player, "510k", {"rounds": 1, "players": 2}, 1, seed=3)
    status, detail = player.get(f"/matches/{view['id']}/rounds/1/")
    assert len(rounds) == 1 and len(detail["bottom"]) == 44
