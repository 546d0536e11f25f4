"""No response to a player names a card that player may not know, nor the seed of a running round.

Over many seeded matches, a person plays at random and after each of their actions also asks for
the view, the events, the list, the rounds and tries cards that are not theirs; every card object
({"id", "code"}) in every one of those responses is checked against the cards hidden from them
at that moment: the ids the full view holds and their own view does not (others' hands, the pile,
the 2-player bottom)."""

import itertools
import random

import pytest
from rest_framework.test import APIClient

from games import services
from games.engine.registry import get_ruleset
from games.models import Match, Round
from tests.matchplay import Client, bots, choose, client_sender, create, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

MATCHES = [
    ("gandengyan", {"starting_score": 12}, 3),
    ("gandengyan", {"starting_score": 12, "decks": 2}, 4),
    ("gandengyan", {"starting_score": 10, "decks": 2}, 5),
    ("gandengyan", {"starting_score": 12}, 3),
    ("510k", {"rounds": 1}, 3),
    ("510k", {"rounds": 1, "players": 2}, 1),
    ("510k", {"rounds": 1}, 3),
    ("510k", {"rounds": 1, "players": 2}, 1),
]


def card_objects(data, path=""):
    """Every {"id", "code"} dict in a JSON value, with where it was found; events of a finished
    round are facts of that round and are skipped (ids are dealt anew each round)."""
    if isinstance(data, dict):
        if "id" in data and "code" in data:
            yield path, data["id"]
        for key, value in data.items():
            yield from card_objects(value, f"{path}.{key}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from card_objects(value, f"{path}[{i}]")


def hidden_now(match_id: int, seat: int) -> tuple[set[int], set[int], str | None, int]:
    """(cards hidden from `seat`, cards in its hand, the running round's seed, round number)."""
    match = Match.objects.get(pk=match_id)
    engine = get_ruleset(match.ruleset)
    state = engine.from_json(match.snapshot)
    visible = {card for _, card in card_objects(engine.view(state, seat))}
    everything = {card for _, card in card_objects(engine.full_view(state))}
    hand = {c["id"] for c in engine.view(state, seat).get("hand", ())}
    running = Round.objects.filter(match=match, ended_at__isnull=True).first()
    return everything - visible, hand, running.seed if running else None, match.round_number


def scan(response, hidden: set[int], hand: set[int], seed: str | None, current_round: int):
    path, status, data = response
    if seed is not None:
        assert seed not in repr(data), f"the running round's seed leaked in {path}"
    events = []
    if isinstance(data, dict):
        events = data.get("events") or []
    stale = {id(e) for e in events if isinstance(e, dict) and e.get("round", 0) < current_round}
    body = dict(data) if isinstance(data, dict) else data
    if isinstance(body, dict) and events:
        body["events"] = [e for e in events if id(e) not in stale]
    leaks = [(where, card) for where, card in card_objects(body) if card in hidden]
    assert not leaks, f"{path} ({status}) shows hidden cards {leaks}"
    if isinstance(data, dict):
        for action in data.get("legal_actions") or []:
            assert set(action.get("cards", ())) <= hand, f"{path} lists cards not in my hand"


def probe(client: Client, view: dict, hidden: set[int], rng: random.Random) -> None:
    """Everything a curious client might ask between two of its own actions."""
    match_id = view["id"]
    client.get(f"/matches/{match_id}/")
    client.get(f"/matches/{match_id}/events/")
    client.get("/matches/")
    client.get(f"/matches/{match_id}/rounds/")
    client.get(f"/matches/{match_id}/rounds/{view['round']['number']}/")
    if hidden:
        stolen = rng.sample(sorted(hidden), min(2, len(hidden)))
        status, _ = client.post(f"/matches/{match_id}/act/",
                                {"expected_version": view["version"],
                                 "action": {"type": "play", "cards": stolen}})
        assert status == 400


@pytest.mark.parametrize(("ruleset", "options", "bot_count"), MATCHES)
def test_no_response_shows_a_hidden_card_or_a_running_seed(
    ruleset, options, bot_count, monkeypatch, request
):
    game = request.node.callspec.id
    counter = itertools.count()
    monkeypatch.setattr(services.progress, "new_seed", lambda: f"hidden-{game}-{next(counter)}")
    rng = random.Random(game)
    client = Client(client_sender(APIClient()))
    sign_in(client)
    view = create(client, ruleset, options, bots(bot_count))
    for _ in range(3000):
        if view["status"] == "finished":
            break
        hidden, hand, seed, number = hidden_now(view["id"], view["you"])
        client.seen.clear()
        probe(client, view, hidden, rng)
        status, view = client.post(f"/matches/{view['id']}/act/",
                                   {"expected_version": view["version"],
                                    "action": choose(view, rng)})
        assert status == 200, view
        for response in client.seen[:-1]:
            scan(response, hidden, hand, seed, number)
        scan(client.seen[-1], *hidden_now(view["id"], view["you"]))
    assert view["status"] == "finished"
