"""Whole matches through the API on SQLite with eager bots: the same flows the integration suite
plays against PostgreSQL and a real worker."""

import hashlib
import itertools
import random

import pytest
from rest_framework.test import APIClient

from games import selectors, services
from games.engine.registry import get_ruleset
from games.models import Event, Match, Move
from scoring.models import ScoreEntry
from tests.matchplay import (
    Client,
    bots,
    choose,
    client_sender,
    create,
    play_through,
    play_turns,
    sign_in,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def seeded(monkeypatch):
    """Round seeds from a counter, so a failing match can be played again."""
    counter = itertools.count()
    monkeypatch.setattr(services.progress, "new_seed", lambda: f"test-seed-{next(counter):04d}")


@pytest.fixture
def player() -> Client:
    client = Client(client_sender(APIClient()))
    sign_in(client)
    return client


def finish(player: Client, view: dict, seed: int) -> dict:
    return play_through(player, view, random.Random(seed))


def check_finished(player: Client, view: dict, rounds: int | None = None) -> None:
    assert view["status"] == "finished"
    standings = view["standings"]
    assert [s["seat"] for s in standings] != [] and len(standings) == len(view["seats"])
    match = Match.objects.get(pk=view["id"])
    for rnd in match.rounds.all():
        assert sum(e.delta for e in ScoreEntry.objects.filter(round=rnd)) == 0
        assert hashlib.sha256(rnd.seed.encode()).hexdigest() == rnd.seed_hash
    if rounds is not None:
        assert match.rounds.count() == rounds
    status, listed = player.get(f"/matches/{view['id']}/rounds/")
    assert status == 200 and all(r["over"] and r["seed"] for r in listed)
    starting = view["options"].get("starting_score", 0)
    scores = [starting] * len(view["seats"])
    for summary in listed:  # each round tells the scores it left, whatever came after
        scores = [score + delta for score, delta in zip(scores, summary["deltas"], strict=True)]
        assert player.get(f"/matches/{view['id']}/rounds/{summary['number']}/")[1]["scores"] \
            == scores
    assert [s["score"] for s in view["seats"]] == scores


def test_gandengyan_one_human_three_bots_to_the_end(player, seeded):
    view = create(player, "gandengyan", {"starting_score": 20}, bots(3))
    assert view["status"] == "active" and view["round"]["number"] == 1
    view = finish(player, view, seed=1)
    check_finished(player, view)
    assert Move.objects.filter(round__match_id=view["id"], actor="bot").exists()


def test_a_round_the_server_ended_for_a_seat_in_autoplay_still_says_how_it_ended(player, seeded):
    view = create(player, "gandengyan", {"starting_score": 20}, bots(3))
    status, view = player.post(f"/matches/{view['id']}/autoplay/", {"on": True})
    assert status == 200
    # In the embedded mode a request plays a bounded slice of server turns: each read plays on.
    for _ in range(10_000):
        if view["status"] == "finished":
            break
        view = player.get(f"/matches/{view['id']}/")[1]
    assert view["status"] == "finished"
    ends = [e.data for e in Event.objects.filter(match_id=view["id"])
            if e.data["type"] == "round_end"]
    assert any(e["actor"] == "auto" for e in ends)
    assert all(e["reason"] in ("empty_hand", "last_holder") for e in ends)


def test_510k_four_seats_two_rounds(player, seeded):
    view = create(player, "510k", {"rounds": 2}, bots(3))
    view = finish(player, view, seed=2)
    check_finished(player, view, rounds=2)


def test_510k_two_players(player, seeded):
    view = create(player, "510k", {"rounds": 1, "players": 2}, bots(1))
    view = finish(player, view, seed=3)
    check_finished(player, view, rounds=1)
    status, detail = player.get(f"/matches/{view['id']}/rounds/1/")
    assert status == 200 and len(detail["bottom"]) == 44


def test_each_act_response_shows_the_bots_replies_up_to_my_next_turn(player, seeded):
    view = create(player, "gandengyan", {}, bots(3))
    for latest in itertools.islice(play_turns(player, view, random.Random(4)), 10):
        if latest["status"] == "active":
            assert latest["your_turn"] and latest["to_act"] == 0
            assert any(e.get("actor") == "human" for e in latest["events"])


def test_two_people_join_with_the_invite_code_and_play(player, seeded):
    view = create(player, "510k", {"rounds": 1},
                  [{"type": "human"}, {"type": "human"}, {"type": "bot"}, {"type": "bot"}])
    assert view["status"] == "waiting" and view["invite_code"]
    friend = Client(client_sender(APIClient()))
    sign_in(friend)
    status, joined = friend.post("/matches/join/", {"code": view["invite_code"].lower()})
    assert status == 200 and joined["you"] == 1 and joined["status"] == "active"
    assert joined["invite_code"] is None
    rng = random.Random(5)
    views = {0: player.get(f"/matches/{view['id']}/")[1], 1: joined}
    clients = {0: player, 1: friend}
    for _ in range(2000):
        current = max(views.values(), key=lambda v: v["version"])
        if current["status"] == "finished":
            break
        seat = current["to_act"]
        status, fresh = clients[seat].get(f"/matches/{view['id']}/")
        status, views[seat] = clients[seat].post(
            f"/matches/{view['id']}/act/",
            {"expected_version": fresh["version"],
             "action": choose(fresh, rng)},
        )
        assert status == 200, views[seat]
    assert current["status"] == "finished"


def test_a_ruleset_added_as_a_folder_plays_through_the_api(player, seeded):
    """tests/rulesets/highcard/ is all there is of it: the service, the bots (at random, as for
    any ruleset without bots of its own), replay and the rules endpoints take it as it comes."""
    view = create(player, "highcard", {"rounds": 2, "players": 3}, bots(2, "hard"))
    assert view["state"]["ruleset"] == "highcard" and view["your_turn"]
    view = finish(player, view, seed=3)
    check_finished(player, view, rounds=2)
    assert Move.objects.filter(round__match_id=view["id"], actor="auto").exists()
    match = Match.objects.get(pk=view["id"])
    assert selectors.match_replay(match) == get_ruleset("highcard").from_json(match.snapshot)
    status, settled = player.post("/rules/highcard/settle/",
                                  {"options": {"players": 3}, "tricks": [2, 1, 0]})
    assert status == 200 and settled["deltas"] == [3, 0, -3]
