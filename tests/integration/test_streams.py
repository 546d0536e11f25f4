"""Live streams across web processes (tests/integration/stack.py: two web servers on one private
PostgreSQL and Redis): a client streams from one server while the acts arrive on the other; every
event arrives once and in order, a reconnect with Last-Event-ID resumes exactly, and the account
stream tells of every turn."""

import asyncio
import random

import pytest

from tests.integration.stack import Stack, two_web_servers
from tests.matchplay import Client, choose, create, http_sender, sign_in
from tests.sse import EventStream

WAIT = 15


@pytest.fixture
def stack():
    # No looks: only Redis pub/sub can carry an act from one server's process to the other's.
    with two_web_servers(STREAM_LOOK_SECONDS="600") as stack:
        yield stack


def people(stack: Stack) -> tuple[dict, dict, int]:
    """Two people at a 510k table for two, each with a client on either web server."""
    first, second = (Client(http_sender(stack.url)) for _ in range(2))
    sign_in(first)
    sign_in(second)
    view = create(first, "510k", {"players": 2, "rounds": 3},
                  [{"type": "human"}, {"type": "human"}])
    status, joined = second.post("/matches/join/", {"code": view["invite_code"]})
    assert status == 200, joined
    other = f"http://127.0.0.1:{stack.second_port}"
    on = {}
    for name, client in (("first", first), ("second", second)):
        elsewhere = Client(http_sender(other))
        elsewhere.headers = dict(client.headers)
        on[name] = {"a": client, "b": elsewhere}
    return on["first"], on["second"], view["id"]


def token(person: dict) -> str:
    return person["a"].headers["Authorization"].split()[1]


def act_once(first: dict, second: dict, match_id: int, server: str, rng) -> dict:
    """Whoever is to act acts, through `server` ("a" or "b"); the view after the act."""
    for person in (first, second):
        status, view = person[server].get(f"/matches/{match_id}/")
        assert status == 200, view
        if view["your_turn"]:
            status, after = person[server].post(
                f"/matches/{match_id}/act/",
                {"expected_version": view["version"], "action": choose(view, rng)})
            assert status == 200, after
            return after
    raise AssertionError(f"nobody is to act: {view['status']}")


def second_to_act(view: dict) -> set[int]:
    """{the view's version} when the second person (seat 1) is to act then."""
    return {view["version"]} if view["status"] == "active" and view["to_act"] == 1 else set()


async def updates_until(stream: EventStream, version: int) -> list:
    """The stream's messages up to the update of `version`."""
    messages = []
    while not messages or messages[-1].data["version"] < version:
        message = await stream.next(WAIT)
        assert message is not None and message.event == "update", message
        messages.append(message)
    return messages


def check_in_order(messages: list, after: int) -> list[dict]:
    """The updates' events follow `after` without a gap or a repeat, each message's id is its
    last event's seq, and versions only go up; the events."""
    events = [e for m in messages for e in m.data["events"]]
    assert [e["seq"] for e in events] == list(range(after + 1, after + 1 + len(events)))
    assert all(m.id == m.data["events"][-1]["seq"] for m in messages)
    versions = [m.data["version"] for m in messages]
    assert versions == sorted(set(versions))
    return events


async def test_a_stream_on_one_server_hears_every_act_made_on_the_other(stack):
    first, second, match_id = await asyncio.to_thread(people, stack)
    path = f"/api/v1/matches/{match_id}/stream/"
    rng = random.Random(7)
    account = await EventStream.open(stack.web_port, "/api/v1/stream/",
                                     {"Authorization": f"Token {token(second)}"})
    listed = await account.next(WAIT)
    assert listed.event == "matches" and [m["match"] for m in listed.data] == [match_id]
    stream = await EventStream.open(stack.web_port, path,
                                    {"Authorization": f"Token {token(first)}"})
    assert stream.status == 200 and stream.headers["content-type"] == "text/event-stream"
    opening = await stream.next(WAIT)
    assert opening.event == "view" and opening.id == opening.data["last_event_seq"]
    start, seen, turns = opening.id, [], set()

    for _ in range(25):  # acts on the second server, heard on the first
        after = await asyncio.to_thread(act_once, first, second, match_id, "b", rng)
        seen += await updates_until(stream, after["version"])
        turns |= second_to_act(after)
    await stream.close()
    events = check_in_order(seen, start)
    status, logged = await asyncio.to_thread(first["a"].get,
                                             f"/matches/{match_id}/events/?since={start}")
    assert status == 200 and events == logged["events"]

    for _ in range(10):  # missed while away
        after = await asyncio.to_thread(act_once, first, second, match_id, "a", rng)
        turns |= second_to_act(after)
    again = await EventStream.open(stack.second_port, path,
                                   {"Authorization": f"Token {token(first)}",
                                    "Last-Event-ID": str(seen[-1].id)})
    missed = []
    while not missed or missed[-1].event != "view":
        missed.append(await again.next(WAIT))
    check_in_order(missed[:-1], seen[-1].id)
    assert missed[-1].data["last_event_seq"] == (missed[-2].id if len(missed) > 1 else seen[-1].id)
    assert missed[-1].data["version"] == after["version"]
    after = await asyncio.to_thread(act_once, first, second, match_id, "a", rng)
    turns |= second_to_act(after)
    check_in_order(await updates_until(again, after["version"]), missed[-1].id)
    await again.close()

    told = set()
    while not turns <= told:
        message = await account.next(WAIT)
        if message.event == "matches":  # the whole list again, after a (re)subscription
            assert [m["match"] for m in message.data] == [match_id]
            continue
        assert message.event in ("your_turn", "turn_passed"), message
        assert message.data["match"] == match_id
        if message.event == "your_turn":
            told.add(message.data["version"])
    assert told == turns
    await account.close()


async def test_a_spectator_on_one_server_is_counted_and_hears_talk_said_on_the_other(stack):
    player, viewer = (Client(http_sender(stack.url)) for _ in range(2))
    sign_in(player)
    sign_in(viewer)
    status, view = player.post("/matches/", {
        "ruleset": "510k", "options": {"players": 2, "rounds": 3}, "watchable": True,
        "seats": [{"type": "human"}, {"type": "bot", "level": "random"}]})
    assert status == 201, view
    watching = await EventStream.open(stack.web_port, f"/api/v1/matches/{view['id']}/stream/",
                                      {"Authorization": viewer.headers["Authorization"]})
    opening = await watching.next(WAIT)
    assert opening.event == "view" and opening.data["you"] is None
    assert "hand" not in opening.data["state"] and opening.data["spectators"] == 1
    elsewhere = Client(http_sender(f"http://127.0.0.1:{stack.second_port}"))
    elsewhere.headers = dict(player.headers)
    status, seen = await asyncio.to_thread(elsewhere.get, f"/matches/{view['id']}/")
    assert status == 200 and seen["spectators"] == 1
    status, said = await asyncio.to_thread(elsewhere.post, f"/matches/{view['id']}/talk/",
                                           {"phrase": "good_luck"})
    assert status == 202, said
    message = await watching.next(WAIT)
    assert message.event == "talk" and message.data["phrase"] == "good_luck"
    assert message.data["seat"] == 0
    await watching.close()
