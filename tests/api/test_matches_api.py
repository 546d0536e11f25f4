"""Each match endpoint, its errors, and that a refused request changes nothing."""

import itertools
import json
from collections import Counter

import pytest
from rest_framework.test import APIClient

from accounts.models import AuthToken
from accounts.tokens import digest
from games import services, sql
from games.api.serializers import ACT
from games.engine.actions import Play, action_from_parsed
from games.engine.registry import get_ruleset
from games.engine.specs import parse
from games.models import Event, Match, Move
from tests.matchplay import Client, bots, client_sender, create, new_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counter = itertools.count()
    monkeypatch.setattr(services.progress, "new_seed", lambda: f"api-seed-{next(counter):04d}")


@pytest.fixture
def player() -> Client:
    return new_player()


@pytest.fixture
def duo(player):
    """A 2-player 510k match between two people: nobody acts but them."""
    view = create(player, "510k", {"players": 2, "rounds": 1},
                  [{"type": "human"}, {"type": "human"}])
    friend = new_player()
    status, _ = friend.post("/matches/join/", {"code": view["invite_code"]})
    assert status == 200
    return player, friend, view["id"]


def fingerprint(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    return (match.version, json.dumps(match.snapshot, sort_keys=True),
            Move.objects.filter(round__match=match).count(),
            Event.objects.filter(match=match).count())


def error_code(response) -> str:
    status, data = response
    assert 400 <= status < 500, (status, data)
    assert set(data) == {"error"} and set(data["error"]) == {"code", "message", "details",
                                                           "request_id"}
    return data["error"]["code"]


def turn_of(duo) -> tuple[Client, Client, dict]:
    """(the player to act, the other one, the acting player's fresh view)."""
    player, friend, match_id = duo
    view = player.get(f"/matches/{match_id}/")[1]
    if view["your_turn"]:
        return player, friend, view
    return friend, player, friend.get(f"/matches/{match_id}/")[1]


# -- create ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"ruleset": "poker"}, "unknown_ruleset"),
        ({"ruleset": "gandengyan", "options": {"jokers": 3}}, "invalid_option"),
        ({"ruleset": "gandengyan", "options": {"decks": 3}}, "invalid_option"),
        ({"ruleset": "gandengyan", "options": {"decks": "1"}}, "invalid_option"),
        ({"ruleset": "510k", "options": {"rounds": 0}}, "invalid_option"),
        ({"ruleset": "510k", "options": {"xi_mode": "both"}}, "invalid_option"),
        ({"ruleset": "510k", "seats": [{"type": "human"}] * 3}, "invalid_option"),
        ({"ruleset": "510k", "options": {"players": 2}, "seats": bots(3)}, "invalid_seats"),
        ({"ruleset": "510k", "seats": [{"type": "bot"}] + bots(2)}, "invalid_seats"),
        ({"ruleset": "510k", "seats": bots(2) + [{"type": "bot", "level": "god"}]},
         "invalid_input"),
        ({"ruleset": "510k", "seats": [{"type": "human", "name": "x"}] + bots(3)},
         "invalid_input"),
        ({"ruleset": "510k", "colour": "red"}, "invalid_input"),
        ({"ruleset": "510k", "options": []}, "invalid_input"),
    ],
)
def test_create_refuses_bad_input(player, body, code):
    assert error_code(player.post("/matches/", body)) == code
    assert not Match.objects.exists()


def test_create_defaults_to_me_against_bots(player):
    status, view = player.post("/matches/", {"ruleset": "gandengyan"})
    assert status == 201
    assert [s["kind"] for s in view["seats"]] == ["human", "bot", "bot", "bot"]
    assert view["options"] == {"decks": 1, "players": 4, "starting_score": 500}
    assert [s["score"] for s in view["seats"]] == [500] * 4
    assert view["you"] == 0 and view["seats"][0]["you"] and view["status"] == "active"


def test_create_needs_a_token():
    status, data = Client(client_sender(APIClient())).post("/matches/", {"ruleset": "510k"})
    assert status == 401 and data["error"]["code"] == "not_authenticated"


def token_of(client: Client) -> AuthToken:
    return AuthToken.objects.get(digest=digest(client.headers["Authorization"].split()[1]))


def test_the_match_views_token_check_refuses_at_once(duo):
    """Their own token check (one written-out query) answers as DRF's: an unknown or deleted
    token and a deactivated user get 401 on the very next request; nothing is cached."""
    player, friend, match_id = duo
    status, view = player.get(f"/matches/{match_id}/")
    assert status == 200 and view["seats"][view["you"]]["player"] == token_of(player).user.username
    body = {"expected_version": view["version"], "action": {"type": "pass"}}
    token = token_of(friend)
    token.user.is_active = False
    token.user.save()
    assert friend.post(f"/matches/{match_id}/act/", body)[0] == 401
    token.delete()
    status, data = friend.get(f"/matches/{match_id}/")
    assert status == 401 and data["error"]["code"] == "authentication_failed"
    player.headers["Authorization"] = "Token " + "0" * 40
    assert error_code(player.post(f"/matches/{match_id}/act/", body)) == "authentication_failed"


# -- view, resume, conditional GET ------------------------------------------------------------


def test_view_is_only_for_the_seated(player, duo):
    _, _, match_id = duo
    outsider = new_player()
    assert error_code(outsider.get(f"/matches/{match_id}/")) == "not_found"
    assert error_code(outsider.get(f"/matches/{match_id}/events/")) == "not_found"
    assert error_code(outsider.get(f"/matches/{match_id}/rounds/")) == "not_found"
    assert error_code(player.get("/matches/999999/")) == "not_found"


def test_conditional_get_answers_304_until_the_version_moves(duo):
    mover, other, view = turn_of(duo)
    path = f"/matches/{view['id']}/"
    status, data = other.get(path, **{"If-None-Match": f'"{view["version"]}"'})
    assert status == 304 and data is None
    status, _ = mover.post(f"{path}act/", {"expected_version": view["version"],
                                          "action": view["legal_actions"][0]})
    assert status == 200
    status, data = other.get(path, **{"If-None-Match": f'"{view["version"]}"'})
    assert status == 200 and data["version"] > view["version"]


def test_leave_changes_nothing_and_resume_returns_the_same_view(duo):
    player, _, match_id = duo
    before = player.get(f"/matches/{match_id}/")[1]
    print_ = fingerprint(match_id)
    status, left = player.post(f"/matches/{match_id}/leave/")
    assert status == 200 and left == {"id": match_id, "status": "active",
                                      "version": before["version"]}
    assert fingerprint(match_id) == print_
    assert timeless(player.get(f"/matches/{match_id}/")[1]) == timeless(before)


def timeless(view: dict) -> dict:
    """A view without the clock's reading of the time, which moves between two requests."""
    return {**view, "clock": {**view["clock"], "server_time": None, "seconds_left": None}}


def test_a_guest_leaving_before_the_start_frees_the_seat(player):
    view = create(player, "510k", {}, [{"type": "human"}] * 3 + [{"type": "bot"}])
    friend = new_player()
    friend.post(f"/matches/{view['id']}/join/", {"code": view["invite_code"]})
    assert friend.post(f"/matches/{view['id']}/leave/")[0] == 200
    status, again = player.get(f"/matches/{view['id']}/")
    assert again["seats"][1]["open"] and again["status"] == "waiting"


# -- join -------------------------------------------------------------------------------------


def test_join_by_code_or_by_id_and_refusals(player):
    view = create(player, "510k", {}, [{"type": "human"}] * 3 + [{"type": "bot"}])
    match_id, code = view["id"], view["invite_code"]
    assert error_code(new_player().post("/matches/join/", {"code": "NOPE"})) == "invalid_invite"
    assert error_code(new_player().post("/matches/join/", {})) == "invalid_input"
    assert error_code(new_player().post(f"/matches/{match_id + 1}/join/", {"code": code})) \
        == "invalid_invite"
    second = new_player()
    status, joined = second.post(f"/matches/{match_id}/join/", {"code": code})
    assert status == 200 and joined["you"] == 1 and joined["status"] == "waiting"
    assert second.post("/matches/join/", {"code": code})[1]["you"] == 1  # twice: same seat
    status, joined = new_player().post("/matches/join/", {"code": code})
    assert joined["you"] == 2 and joined["status"] == "active"
    assert error_code(new_player().post("/matches/join/", {"code": code})) == "match_full"


def test_acting_before_the_start_is_refused(player):
    view = create(player, "510k", {}, [{"type": "human"}] * 2 + [{"type": "bot"}] * 2)
    response = player.post(f"/matches/{view['id']}/act/",
                           {"expected_version": view["version"], "action": {"type": "pass"}})
    assert error_code(response) == "match_not_started"


# -- act: refusals change nothing ---------------------------------------------------------------


def test_stale_version_is_409_and_changes_nothing(duo):
    mover, _, view = turn_of(duo)
    before = fingerprint(view["id"])
    status, data = mover.post(f"/matches/{view['id']}/act/",
                              {"expected_version": view["version"] - 1,
                               "action": view["legal_actions"][0]})
    assert status == 409 and data["error"]["code"] == "stale_version"
    assert data["error"]["details"] == {"expected": view["version"] - 1,
                                        "current": view["version"]}
    assert fingerprint(view["id"]) == before


def test_a_writer_that_read_before_a_concurrent_act_loses_and_changes_nothing(duo, monkeypatch):
    """Two acts computed from the same version: the second one's compare-and-set finds the
    version moved on, so it writes nothing and answers 409."""
    mover, _, view = turn_of(duo)
    stale = sql.match_row(view["id"])
    status, _ = mover.post(f"/matches/{view['id']}/act/",
                           {"expected_version": view["version"],
                            "action": view["legal_actions"][0]})
    assert status == 200
    before = fingerprint(view["id"])
    fresh = sql.match_row  # still checks the token, read with the match
    monkeypatch.setattr(sql, "match_row",
                        lambda *args, **kwargs: stale._replace(token=fresh(*args, **kwargs).token))
    status, data = mover.post(f"/matches/{view['id']}/act/",
                              {"expected_version": view["version"],
                               "action": view["legal_actions"][-1]})
    assert status == 409 and data["error"]["details"] == {"expected": view["version"],
                                                          "current": view["version"] + 1}
    assert fingerprint(view["id"]) == before


def test_not_your_turn_and_not_your_seat(duo):
    mover, other, view = turn_of(duo)
    path = f"/matches/{view['id']}/act/"
    before = fingerprint(view["id"])
    body = {"expected_version": view["version"], "action": view["legal_actions"][0]}
    assert error_code(other.post(path, body)) == "not_your_turn"
    status, data = other.post(path, {**body, "seat": view["you"]})
    assert status == 403 and data["error"]["code"] == "forbidden"
    status, data = new_player().post(path, body)
    assert status == 404 and data["error"]["code"] == "not_found"  # as for a read
    assert fingerprint(view["id"]) == before


def test_act_on_no_such_match(player):
    status, data = player.post("/matches/999999/act/",
                               {"expected_version": 0, "action": {"type": "pass"}})
    assert status == 404 and data["error"]["code"] == "not_found"


def hand_ids(view: dict) -> list[int]:
    return [card["id"] for card in view["state"]["hand"]]


def in_play(duo) -> tuple[Client, Client, dict]:
    """Past the cut: (the player to act, the other one, the acting player's view)."""
    mover, other, view = turn_of(duo)
    while view["state"].get("phase") != "play":
        status, _ = mover.post(f"/matches/{view['id']}/act/",
                               {"expected_version": view["version"],
                                "action": view["legal_actions"][0]})
        assert status == 200
        mover, other, view = turn_of(duo)
    return mover, other, view


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "play", "cards": [9999]}, "unknown_card"),
        ({"type": "play", "cards": "all"}, "invalid_input"),
        ({"type": "play", "cards": ["8H"]}, "invalid_input"),
        ({"type": "play", "cards": [1.5]}, "invalid_input"),
        ({"type": "play"}, "invalid_input"),
        ({"type": "pass", "cards": [1]}, "invalid_input"),
        ({"type": "fold"}, "invalid_input"),
        ({"type": "bid", "solo": "yes"}, "invalid_input"),
        ({"type": "cut", "position": True}, "invalid_input"),
        ({"type": "play", "cards": [1], "reading": {"type": "single"}}, "invalid_input"),
        ({"type": "play", "cards": [1], "colour": "red"}, "invalid_input"),
        ("pass", "invalid_input"),
        ({"type": "bid", "solo": True}, "invalid_action"),
    ],
)
def test_bad_actions_are_400_with_a_code(duo, action, code):
    mover, _, view = in_play(duo)
    before = fingerprint(view["id"])
    response = mover.post(f"/matches/{view['id']}/act/",
                          {"expected_version": view["version"], "action": action})
    assert error_code(response) == code
    assert fingerprint(view["id"]) == before


@pytest.mark.parametrize(
    "body",
    [
        {"action": {"type": "pass"}},
        {"expected_version": "3", "action": {"type": "pass"}},
        {"expected_version": True, "action": {"type": "pass"}},
        {"expected_version": 1, "action": {"type": "pass"}, "hurry": True},
        [1, 2],
    ],
)
def test_malformed_act_bodies(duo, body):
    mover, _, view = turn_of(duo)
    assert error_code(mover.post(f"/matches/{view['id']}/act/", body)) == "invalid_input"


def test_cards_not_in_my_hand_are_refused(duo):
    mover, other, view = in_play(duo)
    theirs = other.get(f"/matches/{view['id']}/")[1]
    before = fingerprint(view["id"])
    response = mover.post(f"/matches/{view['id']}/act/",
                          {"expected_version": view["version"],
                           "action": {"type": "play", "cards": hand_ids(theirs)[:1]}})
    assert error_code(response) == "card_not_in_hand"
    response = mover.post(f"/matches/{view['id']}/act/",
                          {"expected_version": view["version"],
                           "action": {"type": "play", "cards": hand_ids(view)[:1] * 2}})
    assert error_code(response) == "duplicate_card"
    assert fingerprint(view["id"]) == before


def test_huge_and_malformed_bodies(duo):
    mover, _, view = turn_of(duo)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=mover.headers["Authorization"])
    path = f"/api/v1/matches/{view['id']}/act/"
    huge = json.dumps({"expected_version": 1, "action": {"type": "play",
                                                         "cards": list(range(40000))}})
    response = client.generic("POST", path, huge, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "body_too_large"
    response = client.generic("POST", path, "{nope", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_json"


def ambiguous_lead_seed() -> str:
    """A deal in which seat 0 leads and holds cards with two legal readings (a joker and two
    cards a rank apart: two straights), found with the engine."""
    engine = get_ruleset("gandengyan")
    options = engine.parse_options({})
    for attempt in range(2000):
        seed = f"ambiguous-{attempt}"
        state = engine.start_round(engine.new_match(options, [True, False, False, False]), seed)
        if engine.to_act(state) != 0:
            continue
        plays = Counter(tuple(sorted(a.cards)) for a in engine.legal_actions(state, 0)
                        if isinstance(a, Play))
        if any(n > 1 for n in plays.values()):
            return seed
    raise AssertionError("no ambiguous lead in 2000 deals")


def test_ambiguous_play_lists_the_readings(player, monkeypatch):
    seed = ambiguous_lead_seed()
    monkeypatch.setattr(services.progress, "new_seed", lambda: seed)
    view = create(player, "gandengyan", {}, bots(3))
    by_cards = {}
    for item in view["legal_actions"]:
        if item["type"] == "play":
            by_cards.setdefault(tuple(sorted(item["cards"])), []).append(item["reading"])
    ambiguous = [(cards, r) for cards, r in by_cards.items() if len(r) > 1]
    cards, readings = ambiguous[0]
    path = f"/matches/{view['id']}/act/"
    before = fingerprint(view["id"])
    status, data = player.post(path, {"expected_version": view["version"],
                                      "action": {"type": "play", "cards": list(cards)}})
    assert status == 400 and data["error"]["code"] == "ambiguous_play"
    assert sorted(map(str, data["error"]["details"]["readings"])) == sorted(map(str, readings))
    assert fingerprint(view["id"]) == before
    status, data = player.post(path, {"expected_version": view["version"],
                                      "action": {"type": "play", "cards": list(cards),
                                                 "reading": readings[0]}})
    assert status == 200


# -- list, events, rounds ---------------------------------------------------------------------


def test_list_my_matches_by_status(player, duo):
    create(player, "gandengyan", {"starting_score": 1},
           [{"type": "human"}, {"type": "human"}] + [{"type": "bot"}] * 2)
    status, listed = player.get("/matches/")
    ids = [m["id"] for m in listed["results"]]
    assert status == 200 and len(ids) == 2 and ids == sorted(ids, reverse=True)
    assert listed["next"] is None
    status, waiting = player.get("/matches/?status=waiting")
    assert [m["status"] for m in waiting["results"]] == ["waiting"]
    status, first = player.get("/matches/?limit=1")
    assert [m["id"] for m in first["results"]] == ids[:1] and first["next"] == ids[0]
    status, second = player.get(f"/matches/?limit=1&before={first['next']}")
    assert [m["id"] for m in second["results"]] == ids[1:] and second["next"] is None
    assert error_code(player.get("/matches/?status=asleep")) == "invalid_input"
    assert error_code(player.get("/matches/?limit=0")) == "invalid_input"
    assert error_code(player.get("/matches/?limit=1&limit=2")) == "invalid_input"
    assert new_player().get("/matches/")[1] == {"results": [], "next": None}
    active = player.get("/matches/?status=active")[1]["results"][0]
    assert active["you"] == 0 and isinstance(active["your_turn"], bool)


def test_events_since_a_sequence_number(duo):
    mover, _, view = turn_of(duo)
    path = f"/matches/{view['id']}/events/"
    status, everything = mover.get(path)
    assert status == 200 and everything["version"] == view["version"]
    seqs = [e["seq"] for e in everything["events"]]
    assert seqs == list(range(1, everything["last_event_seq"] + 1))
    assert everything["events"][0]["type"] == "match_created"
    mover.post(f"/matches/{view['id']}/act/",
               {"expected_version": view["version"], "action": view["legal_actions"][0]})
    status, newer = mover.get(f"{path}?since={seqs[-1]}")
    assert newer["events"] and all(e["seq"] > seqs[-1] for e in newer["events"])
    assert newer["events"][0]["actor"] == "human"
    assert mover.get(f"{path}?since={seqs[-1]}&limit=1")[1]["events"] == newer["events"][:1]
    assert error_code(mover.get(f"{path}?since=-1")) == "invalid_input"
    assert error_code(mover.get(f"{path}?since=x")) == "invalid_input"


def test_a_running_round_keeps_its_seed(duo):
    player, _, match_id = duo
    status, rounds = player.get(f"/matches/{match_id}/rounds/")
    assert status == 200 and rounds[0]["seed"] is None and not rounds[0]["over"]
    status, detail = player.get(f"/matches/{match_id}/rounds/1/")
    assert detail["seed"] is None and "hands" not in detail and "settlement" not in detail
    assert error_code(player.get(f"/matches/{match_id}/rounds/2/")) == "not_found"


def test_schema_documents_the_match_endpoints(api_client):
    schema = api_client.get("/api/v1/schema/?format=json").json()
    for path in ("/api/v1/matches/", "/api/v1/matches/{match_id}/act/",
                 "/api/v1/matches/{match_id}/events/", "/api/v1/matches/join/",
                 "/api/v1/matches/{match_id}/rounds/{number}/"):
        assert path in schema["paths"], path
    act = schema["paths"]["/api/v1/matches/{match_id}/act/"]["post"]
    assert {"200", "400", "403", "409", "413"} <= set(act["responses"])


def test_a_listed_play_is_accepted_back_as_it_came_extras_count_included():
    body = parse(ACT, {"expected_version": 3,
                       "action": {"type": "play", "cards": [20, 21, 22], "extras": 2}},
                 "invalid_input")
    assert action_from_parsed(body["action"]) == Play((20, 21, 22))
