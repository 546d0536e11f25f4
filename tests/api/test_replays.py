"""Replays for players: a finished match round by round from its seeds and stored moves, every
hand open; who may replay it; a match still played has none."""

import hashlib
import random

import pytest

from games import services
from games.models import Match, Move, Round
from games.services import compaction
from tests.matchplay import bots, counted_seeds, create, new_player, play_through

pytestmark = pytest.mark.django_db(transaction=True)  # bots answer once an act commits


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "replays")


def finished(client, ruleset="510k", options=None, watchable=False) -> dict:
    options = {"players": 2, "rounds": 2} if options is None else options
    players = options.get("players", 4)
    status, view = client.post("/matches/", {"ruleset": ruleset, "options": options,
                                             "seats": bots(players - 1),
                                             "watchable": watchable})
    assert status == 201, view
    view = play_through(client, view, random.Random(ruleset))
    assert view["status"] == "finished"
    return view


@pytest.mark.parametrize(("ruleset", "options"), [
    ("510k", {"players": 2, "rounds": 2}), ("510k", {"players": 4, "rounds": 1}),
    ("gandengyan", {"players": 4, "starting_score": 10})])
def test_a_player_replays_every_round_from_its_seed_and_moves(ruleset, options):
    player = new_player()
    view = finished(player, ruleset, options)
    status, replay = player.get(f"/matches/{view['id']}/replay/")
    assert status == 200, replay
    assert replay["you"] == 0 and replay["standings"] == view["standings"]
    rounds = Round.objects.filter(match=view["id"]).order_by("number")
    assert [r["number"] for r in replay["rounds"]] == [r.number for r in rounds]
    for summary in replay["rounds"]:
        assert hashlib.sha256(summary["seed"].encode()).hexdigest() == summary["seed_hash"]
        status, one = player.get(f"/matches/{view['id']}/replay/{summary['number']}/")
        assert status == 200, one
        moves = Move.objects.filter(round__match=view["id"], round__number=summary["number"])
        assert [(s["seq"], s["seat"], s["action"]) for s in one["steps"]] == [
            (m.seq, m.seat, m.action) for m in moves.order_by("seq")]
        assert one["start"]["round"] == summary["number"]
        assert one["steps"][-1]["view"]["hands"] == one["hands"]  # as the round ended
        dealt = one["start"] if one["start"]["phase"] != "cut" else one["steps"][0]["view"]
        assert sum(map(len, dealt["hands"])) > 0


def test_a_replay_is_for_its_players_for_anyone_if_it_was_watchable_and_for_staff(
        django_user_model):
    player, stranger = new_player(), new_player()
    private = finished(player)
    public = finished(player, watchable=True)
    assert stranger.get(f"/matches/{private['id']}/replay/")[0] == 404
    assert stranger.get(f"/matches/{private['id']}/replay/1/")[0] == 404
    status, replay = stranger.get(f"/matches/{public['id']}/replay/")
    assert status == 200 and replay["you"] is None
    assert stranger.get(f"/matches/{public['id']}/replay/1/")[0] == 200
    assert stranger.get(f"/matches/{public['id']}/replay/9/")[0] == 404
    django_user_model.objects.filter(pk=stranger.get("/auth/me/")[1]["id"]).update(
        is_staff=True)
    assert stranger.get(f"/matches/{private['id']}/replay/")[0] == 200


def test_a_match_still_played_has_no_replay_and_an_aborted_one_hides_its_last_round():
    player = new_player()
    view = create(player, "510k", {"players": 2, "rounds": 2}, bots(1))
    status, refused = player.get(f"/matches/{view['id']}/replay/")
    assert status == 409 and refused["error"]["code"] == "match_not_finished"
    services.match_abort(match_id=view["id"], reason="testing")
    status, replay = player.get(f"/matches/{view['id']}/replay/")
    assert status == 200 and replay["rounds"] == []
    assert player.get(f"/matches/{view['id']}/replay/1/")[0] == 404
    assert Match.objects.get(pk=view["id"]).status == Match.Status.ABORTED


def test_a_compacted_match_replays_from_its_archive():
    player = new_player()
    view = finished(player)
    before = [player.get(f"/matches/{view['id']}/replay/{n}/")[1] for n in (1, 2)]
    assert compaction.match_compact(view["id"])
    assert not Move.objects.filter(match_id=view["id"]).exists()
    after = [player.get(f"/matches/{view['id']}/replay/{n}/")[1] for n in (1, 2)]
    assert [r["steps"] for r in after] == [r["steps"] for r in before]
