"""An act's optional Idempotency-Key: when an act was applied but its answer was lost, the retry
with the same key answers 200 with the match as it is now and every event since that act, and
acts no second time; a key is one action of one seat; a refused request stores nothing."""

import random

import pytest
from rest_framework.test import APIClient

from accounts.models import AuthToken
from accounts.tokens import digest
from games import services
from games.engine.actions import action_from_dict
from games.models import Event, Match, Move
from tests.matchplay import Client, bots, choose, counted_seeds, create, new_player

# Committed transactions: the bots (eager) answer after each act's commit, as in `make run`.
pytestmark = pytest.mark.django_db(transaction=True)

KEY = "8a0e2c1e-3b7e-4a55-9d0f-7f2b8c6d1e42"


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "idempotency")


@pytest.fixture
def player() -> Client:
    return new_player()


@pytest.fixture
def view(player) -> dict:
    """A gandengyan match against random bots, on our turn."""
    view = create(player, "gandengyan", {}, bots(3))
    assert view["your_turn"]
    return view


def act(client: Client, view: dict, action: dict, key: str | None = KEY, version=None):
    headers = {"Idempotency-Key": key} if key is not None else {}
    body = {"expected_version": view["version"] if version is None else version,
            "action": action}
    return client.call("POST", f"/matches/{view['id']}/act/", body, **headers)


def stored(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    return (match.version, match.snapshot, Move.objects.filter(match=match).count(),
            Event.objects.filter(match=match).count())


def test_a_retry_with_the_key_answers_again_without_acting_again(player, view):
    action = choose(view, random.Random(1))
    status, first = act(player, view, action)
    assert status == 200
    after = stored(view["id"])
    status, again = act(player, view, action)
    assert status == 200
    assert stored(view["id"]) == after
    assert again["version"] == first["version"]
    assert again["events"] == first["events"]
    assert Move.objects.filter(idempotency_key=KEY).count() == 1


def test_the_answer_lost_after_the_act_is_recovered_by_the_retry(player, view):
    """The act is applied (here straight through the service, as if the worker died before
    answering); the client's retry gets 200 and the events its act caused, not a 409."""
    action = choose(view, random.Random(2))
    done = services.action_submit(
        match_id=view["id"], seat=None, player=player_user(player),
        action=action_from_dict(action), expected_version=view["version"], actor="human",
        idempotency_key=KEY)
    after = stored(view["id"])
    status, again = player.call("POST", f"/matches/{view['id']}/act/",
                                {"expected_version": view["version"], "action": action},
                                **{"Idempotency-Key": KEY})
    assert status == 200, again
    assert stored(view["id"]) == after
    # The view as it is now (the bots answered after the commit), with the act's events first.
    assert again["version"] == after[0] > done.read.match.version
    assert [e["seq"] for e in again["events"]] == list(
        range(done.events[0].seq, again["last_event_seq"] + 1))
    status, stale = act(player, view, action, key=None)
    assert status == 409 and stale["error"]["code"] == "stale_version"


def player_user(client: Client):
    return AuthToken.objects.get(digest=digest(client.headers["Authorization"].split()[1])).user


def test_the_replayed_answer_is_the_match_as_it_is_now(player, view):
    action = choose(view, random.Random(3))
    status, first = act(player, view, action)
    assert status == 200 and first["your_turn"]
    status, second = act(player, first, choose(first, random.Random(4)), key="another-key")
    assert status == 200
    status, again = act(player, view, action)
    assert status == 200
    assert again["version"] == second["version"] == stored(view["id"])[0]
    assert again["state"] == second["state"]
    seqs = [e["seq"] for e in again["events"]]
    assert seqs == list(range(first["events"][0]["seq"], second["last_event_seq"] + 1))


def test_the_replay_is_marked(player, view):
    action = choose(view, random.Random(5))
    sent = []
    for _ in range(2):
        response = APIClient()
        response.credentials(HTTP_AUTHORIZATION=player.headers["Authorization"])
        sent.append(response.post(f"/api/v1/matches/{view['id']}/act/",
                                  {"expected_version": view["version"], "action": action},
                                  format="json", HTTP_IDEMPOTENCY_KEY=KEY))
    assert [r.status_code for r in sent] == [200, 200]
    assert "Idempotent-Replayed" not in sent[0]
    assert sent[1]["Idempotent-Replayed"] == "true"


def test_the_same_key_for_another_action_is_refused(player, view):
    actions = view["legal_actions"]
    status, _ = act(player, view, actions[0])
    assert status == 200
    before = stored(view["id"])
    status, data = act(player, view, {"type": "pass"} if actions[0]["type"] != "pass"
                       else actions[1])
    assert status == 409
    assert data["error"]["code"] == "idempotency_key_reused"
    assert stored(view["id"]) == before


def test_a_refused_act_keeps_no_key(player, view):
    action = choose(view, random.Random(6))
    before = stored(view["id"])
    status, data = act(player, view, action, version=view["version"] + 1)
    assert status == 409 and data["error"]["code"] == "stale_version"
    assert stored(view["id"]) == before
    assert not Move.objects.filter(idempotency_key=KEY).exists()
    assert act(player, view, action)[0] == 200


def test_keys_belong_to_their_seat(player):
    """Two people may pick the same key: each one's act is their own."""
    view = create(player, "510k", {"players": 2, "rounds": 1},
                  [{"type": "human"}, {"type": "human"}])
    friend = new_player()
    assert friend.post("/matches/join/", {"code": view["invite_code"]})[0] == 200
    keyed = set()
    rng = random.Random(7)
    while len(keyed) < 2:
        mover = player if player.get(f"/matches/{view['id']}/")[1]["your_turn"] else friend
        view = mover.get(f"/matches/{view['id']}/")[1]
        key = KEY if mover not in keyed else None
        status, data = act(mover, view, choose(view, rng), key=key)
        assert status == 200, data
        keyed.add(mover)
    assert Move.objects.filter(idempotency_key=KEY, actor="human").count() == 2
    assert Move.objects.filter(idempotency_key=KEY).values("seat").distinct().count() == 2


@pytest.mark.parametrize("key", ["", "x" * 65, "two words", "clé"])
def test_a_malformed_key_is_refused(player, view, key):
    before = stored(view["id"])
    response = APIClient()
    response.credentials(HTTP_AUTHORIZATION=player.headers["Authorization"])
    answer = response.post(f"/api/v1/matches/{view['id']}/act/",
                           {"expected_version": view["version"],
                            "action": choose(view, random.Random(8))},
                           format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert answer.status_code == 400
    assert answer.json()["error"]["details"]["field"] == "Idempotency-Key"
    assert stored(view["id"]) == before
