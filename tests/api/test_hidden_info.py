"""No response to a player names a card that player may not know, nor the seed of a running round;
every event they read is one its ruleset's events spec (with the service's, games.events) allows.

For every registered ruleset (the test-only ones included) at every table size, a person plays
seeded matches at random and after each of their actions also asks for the view, the events, the
list, the rounds and tries cards that are not theirs, while the match's stream stays open; every
card object ({"id", "code"}) in every one of those responses and stream messages is checked
against the cards hidden from them at that moment: the ids the full view holds that neither an
onlooker's view nor their own hand does (others' hands, the pile, the 2-player bottom). The match
is watchable, and a spectator asks for the same (the watch list instead of theirs) with their own
stream open: everything they read is checked against every card an onlooker's view does not
hold. A leak planted in a ruleset (tests/rulesets/leaky.py) fails the scan."""

import asyncio
import dataclasses
import random
from typing import NamedTuple

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from rest_framework.test import APIClient

from games import events, selectors
from games.engine.registry import RULESETS, get_ruleset
from games.engine.specs import Choice, Int, parse
from games.models import Match, Round
from tests import sse
from tests.matchplay import Client, bots, choose, client_sender, counted_seeds, sign_in
from tests.rulesets.leaky import EventsShowHands, ViewShowsHand

pytestmark = pytest.mark.django_db(transaction=True)
WAIT = 10
MAX_ACTS = 3000
LONG_MATCH_ROUNDS = 2  # a match of default options is scanned through its first rounds only


def short_options(ruleset, players: int, turn: int) -> dict:
    """Options for a short match: each whole-number option at its lowest, each other choice the
    `turn`-th of its values (so that the table sizes of a ruleset try them in turn)."""
    options = {"players": players}
    for name, field in ruleset.info.options.fields.items():
        if name == "players":
            continue
        if isinstance(field.spec, Int):
            options[name] = field.spec.low
        elif isinstance(field.spec, Choice):
            options[name] = field.spec.values[turn % len(field.spec.values)]
    return options


def matches():
    """Every registered ruleset: a short match at each table size, played to its end, and a
    match of its default options, played through its first rounds."""
    for name, ruleset in sorted(RULESETS.items()):
        for turn, players in enumerate(ruleset.info.players):
            yield pytest.param(name, short_options(ruleset, players, turn), None,
                               id=f"{name}-{players}")
        yield pytest.param(name, {}, LONG_MATCH_ROUNDS, id=f"{name}-defaults")


class Secret(NamedTuple):
    """What a seat may not know at one moment, and where the match stands."""

    hidden: set[int]  # card ids
    hand: set[int]
    seed: str | None  # the running round's
    round: int
    version: int


def card_objects(data, path=""):
    """Every {"id", "code"} dict in a JSON value, with where it was found."""
    if isinstance(data, dict):
        if "id" in data and "code" in data:
            yield path, data["id"]
        for key, value in data.items():
            yield from card_objects(value, f"{path}.{key}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from card_objects(value, f"{path}[{i}]")


def ids(data) -> set[int]:
    return {card for _, card in card_objects(data)}


def secret_now(match_id: int, seat: int | None) -> Secret:
    """What `seat` may not know now (None: a spectator)."""
    match = Match.objects.get(pk=match_id)
    engine = get_ruleset(match.ruleset)
    state = engine.from_json(match.snapshot)
    hand = set() if seat is None else set(engine.view_facts(state).hands[seat])
    hidden = ids(engine.full_view(state)) - ids(engine.view(state, None)) - hand
    running = Round.objects.filter(match=match, ended_at__isnull=True).first()
    return Secret(hidden, hand, running.seed if running else None, match.round_number,
                  match.version)


def scan(response, secret: Secret, spec) -> None:
    """One response or stream message; events of a finished round are facts of that round and
    are not checked for cards (ids are dealt anew each round)."""
    path, status, data = response
    if secret.seed is not None:
        assert secret.seed not in repr(data), f"the running round's seed leaked in {path}"
    body = data
    if isinstance(data, dict) and data.get("events"):
        for event in data["events"]:
            parse(spec, event, "bad_event")
        body = {**data, "events": [e for e in data["events"] if e["round"] >= secret.round]}
    leaks = [(where, card) for where, card in card_objects(body) if card in secret.hidden]
    assert not leaks, f"{path} ({status}) shows hidden cards {leaks}"
    if isinstance(data, dict):
        for action in data.get("legal_actions") or []:
            assert set(action.get("cards", ())) <= secret.hand, f"{path} lists cards not in my hand"


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


def watch(spectator: Client, view: dict, spec) -> Secret:
    """A spectator's reads of the match as it stands, scanned; what is hidden from them."""
    secret = secret_now(view["id"], None)
    match_id = view["id"]
    spectator.seen.clear()
    spectator.get(f"/matches/{match_id}/")
    spectator.get(f"/matches/{match_id}/events/")
    spectator.get("/watch/")
    spectator.get(f"/matches/{match_id}/rounds/")
    spectator.get(f"/matches/{match_id}/rounds/{view['round']['number']}/")
    for response in spectator.seen:
        assert response[1] == 200, response
        path, _, data = response
        if not (path.startswith(f"/matches/{match_id}/rounds/") and isinstance(data, dict)
                and data["over"]):  # an ended round's hands are facts of that round
            scan(response, secret, spec)
    return secret


def turn(client: Client, spectator: Client, view: dict, rng: random.Random,
         spec) -> tuple[dict, Secret, Secret]:
    """Probe, act, and scan every answer; the new view and what is hidden after it, from the
    player and from the spectator."""
    before = secret_now(view["id"], view["you"])
    client.seen.clear()
    probe(client, view, before.hidden, rng)
    status, view = client.post(f"/matches/{view['id']}/act/",
                               {"expected_version": view["version"],
                                "action": choose(view, rng)})
    assert status == 200, view
    for response in client.seen[:-1]:
        scan(response, before, spec)
    after = secret_now(view["id"], view["you"])
    scan(client.seen[-1], after, spec)
    return view, after, watch(spectator, view, spec)


class Stream:
    """A match's stream, read in-process: its messages up to a version."""

    def __init__(self, chunks):
        self.chunks, self.buffer, self.ended = chunks, "", False

    @classmethod
    async def open(cls, match_id: int, token: str) -> "Stream":
        response = await AsyncClient().get(f"/api/v1/matches/{match_id}/stream/",
                                           headers={"Authorization": f"Token {token}"})
        assert response.status_code == 200, response.content
        return cls(aiter(response.streaming_content))

    async def until(self, version: int) -> list[sse.Message]:
        """The messages up to the first of `version` or later (or to the stream's end)."""
        messages = []
        while not self.ended and not (messages and messages[-1].data["version"] >= version):
            while "\n\n" not in self.buffer:
                try:
                    self.buffer += (await asyncio.wait_for(anext(self.chunks), WAIT)).decode()
                except StopAsyncIteration:
                    self.ended = True
                    return messages
            block, self.buffer = self.buffer.split("\n\n", 1)
            message = sse.parse(block, 0.0)
            if message is not None:
                messages.append(message)
        return messages

    async def close(self) -> None:
        await self.chunks.aclose()


def create_watchable(client: Client, ruleset: str, options: dict, players: int) -> dict:
    status, view = client.post("/matches/", {"ruleset": ruleset, "options": options,
                                             "seats": bots(players - 1), "watchable": True})
    assert status == 201, view
    return view


async def scan_match(ruleset: str, options: dict, rounds: int | None, game: str) -> None:
    """A person's match against random bots, watched by a spectator, scanned as the module
    says, to its end or through `rounds` rounds."""
    rng = random.Random(game)
    spec = events.spec(get_ruleset(ruleset))
    players = get_ruleset(ruleset).parse_options(options)["players"]
    client = Client(client_sender(APIClient()))
    spectator = Client(client_sender(APIClient()))
    token = (await sync_to_async(sign_in)(client))["token"]
    watcher = (await sync_to_async(sign_in)(spectator))["token"]
    view = await sync_to_async(create_watchable)(client, ruleset, options, players)
    secret = await sync_to_async(secret_now)(view["id"], view["you"])
    seen = await sync_to_async(watch)(spectator, view, spec)
    stream = await Stream.open(view["id"], token)
    watching = await Stream.open(view["id"], watcher)
    try:
        for _ in range(MAX_ACTS):
            for message in await stream.until(secret.version):
                scan((f"stream {message.event}", 200, message.data), secret, spec)
            for message in await watching.until(seen.version):
                scan((f"spectator's stream {message.event}", 200, message.data), seen, spec)
            if view["status"] == "finished" or (rounds and view["round"]["number"] > rounds):
                return
            view, secret, seen = await sync_to_async(turn)(client, spectator, view, rng, spec)
        raise AssertionError("the match did not finish")
    finally:
        await stream.close()
        await watching.close()


@pytest.mark.parametrize(("ruleset", "options", "rounds"), list(matches()))
async def test_no_response_or_message_shows_a_hidden_card_or_a_running_seed(
    ruleset, options, rounds, monkeypatch, request
):
    game = request.node.callspec.id
    counted_seeds(monkeypatch, f"hidden-{game}")
    await scan_match(ruleset, options, rounds, game)


@pytest.mark.parametrize("leaky", [EventsShowHands(), ViewShowsHand()], ids=lambda r: r.name)
async def test_a_planted_leak_fails_the_scan(leaky, monkeypatch):
    counted_seeds(monkeypatch, "planted")
    monkeypatch.setitem(RULESETS, leaky.name, leaky)
    options = {"players": 3, "rounds": 1}
    await scan_match("highcard", options, None, "honest")
    with pytest.raises(AssertionError, match="shows hidden cards"):
        await scan_match(leaky.name, options, None, "planted")


async def test_a_spectator_given_a_seats_view_fails_the_scan(monkeypatch):
    counted_seeds(monkeypatch, "planted-spectator")
    honest = selectors.for_reader

    def seat_zero_for_all(read, user):
        read = honest(read, user)
        return read if read.mine else dataclasses.replace(read, mine=read.seats[0])

    monkeypatch.setattr(selectors, "for_reader", seat_zero_for_all)
    with pytest.raises(AssertionError, match="shows hidden cards|not in my hand"):
        await scan_match("highcard", {"players": 3, "rounds": 1}, None, "planted")
