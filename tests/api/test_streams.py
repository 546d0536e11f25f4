"""Live streams through the ASGI application, in-process (no Redis: notices go straight to the
streams of this process): the first view, updates as versions commit, resuming with
Last-Event-ID, tickets, who may listen, and the account stream."""

import asyncio
import gc
import itertools
import json
import random
import threading
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.db import OperationalError
from django.test import AsyncClient
from django.utils import timezone

from games import live
from games.api import streams
from games.engine.registry import get_ruleset
from games.errors import NotFound
from games.models import Match, Seat, Table
from tests.matchplay import Client, bots, choose, counted_seeds, create, new_player

pytestmark = pytest.mark.django_db(transaction=True)
WAIT = 10


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "streams")


def parse(chunk: bytes) -> list[dict]:
    """The SSE messages in a chunk (heartbeat comments left out)."""
    messages = []
    for block in chunk.decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines()
                      if line and not line.startswith(":"))
        if fields:
            messages.append({"id": int(fields["id"]) if "id" in fields else None,
                             "event": fields["event"], "data": json.loads(fields["data"])})
    return messages


class Stream:
    """An open stream's messages, read as they come."""

    def __init__(self, response):
        self.response = response
        self.chunks = aiter(response.streaming_content)

    async def next(self) -> list[dict]:
        while True:
            messages = parse(await asyncio.wait_for(anext(self.chunks), WAIT))
            if messages:
                return messages

    async def close(self):
        await self.chunks.aclose()


def token_of(client: Client) -> str:
    return client.headers["Authorization"].split()[1]


async def open_stream(path: str, token: str | None = None, **headers) -> Stream:
    if token is not None:
        headers["Authorization"] = f"Token {token}"
    response = await AsyncClient().get(f"/api/v1{path}", headers=headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    return Stream(response)


def two_people():
    first, second = new_player(), new_player()
    view = create(first, "510k", {"players": 2, "rounds": 1},
                  [{"type": "human"}, {"type": "human"}])
    second.post("/matches/join/", {"code": view["invite_code"]})
    return first, second, view["id"]


def act(client: Client, match_id: int, rng) -> dict:
    view = client.get(f"/matches/{match_id}/")[1]
    status, view = client.post(f"/matches/{match_id}/act/",
                               {"expected_version": view["version"],
                                "action": choose(view, rng)})
    assert status == 200, view
    return view


def mover(first: Client, second: Client, match_id: int) -> Client:
    return first if first.get(f"/matches/{match_id}/")[1]["your_turn"] else second


async def test_the_first_message_is_the_readers_view_then_an_update_per_version():
    first, second, match_id = await sync_to_async(two_people)()
    stream = await open_stream(f"/matches/{match_id}/stream/", token_of(first))
    try:
        (opening,) = await stream.next()
        view = await sync_to_async(first.get)(f"/matches/{match_id}/")
        assert opening["event"] == "view" and opening["id"] == view[1]["last_event_seq"]
        assert {**opening["data"], "clock": None} == {**view[1], "clock": None}
        rng = random.Random(1)
        seen = [opening["id"]]
        for _ in range(3):
            who = await sync_to_async(mover)(first, second, match_id)
            after = await sync_to_async(act)(who, match_id, rng)
            updates = []
            while not updates or updates[-1]["data"]["version"] < after["version"]:
                updates += await stream.next()
            for update in updates:
                assert update["event"] == "update"
                seqs = [e["seq"] for e in update["data"]["events"]]
                assert seqs == list(range(seen[-1] + 1, update["id"] + 1))
                seen.append(update["id"])
            assert "version" in updates[-1]["data"]["changed"]
            assert all("hand" not in e for u in updates for e in u["data"]["events"])
    finally:
        await stream.close()


def readers(match_id: int) -> list:
    """The match's seated people, by seat, and someone else."""
    seated = [s.user for s in Seat.objects.filter(match_id=match_id).select_related("user")
              .order_by("index")]
    return [*seated, get_user_model().objects.create_user("onlooker")]


async def test_views_asked_for_at_once_share_one_read_of_the_match_each_the_readers_own(
        monkeypatch):
    first, second, match_id = await sync_to_async(two_people)()
    one, two, stranger = await sync_to_async(readers)(match_id)
    reads = []
    honest = streams.services.match_reads
    monkeypatch.setattr(streams.services, "match_reads",
                        lambda users, *args, **kwargs: reads.append(len(users))
                        or honest(users, *args, **kwargs))
    asked = [streams.READS.view(user, match_id, None) for user in (one, two, one, stranger)]
    found = await asyncio.gather(*asked, return_exceptions=True)
    assert reads == [4]
    for (view, _), person in zip(found[:3], (first, second, first), strict=True):
        assert view == (await sync_to_async(person.get)(f"/matches/{match_id}/"))[1] | {
            "clock": view["clock"]}
    assert [view["you"] for view, _ in found[:3]] == [0, 1, 0]
    assert isinstance(found[3], NotFound)  # a match it may not watch: only the stranger's fails


async def test_a_reader_who_reconnects_with_last_event_id_misses_nothing_and_gets_nothing_twice():
    first, second, match_id = await sync_to_async(two_people)()
    before = (await sync_to_async(first.get)(f"/matches/{match_id}/"))[1]["last_event_seq"]
    rng = random.Random(2)
    for _ in range(4):
        who = await sync_to_async(mover)(first, second, match_id)
        await sync_to_async(act)(who, match_id, rng)
    stream = await open_stream(f"/matches/{match_id}/stream/", token_of(second),
                               **{"Last-Event-ID": str(before)})
    try:
        messages = []
        while not messages or messages[-1]["event"] != "view":
            messages += await stream.next()
        events = [e["seq"] for m in messages[:-1] for e in m["data"]["events"]]
        last = messages[-1]["data"]["last_event_seq"]
        assert events == list(range(before + 1, last + 1))
        assert messages[-1]["id"] == last
        assert messages[-1]["data"]["events"] == []  # the catch-up delivered them: not again
    finally:
        await stream.close()


async def test_a_ticket_opens_one_stream_once_and_only_players_may_listen():
    first, _, match_id = await sync_to_async(two_people)()
    status, issued = await sync_to_async(first.post)("/auth/stream-ticket/")
    ticket = issued["ticket"]
    stream = await open_stream(f"/matches/{match_id}/stream/?ticket={ticket}")
    (opening,) = await stream.next()
    assert opening["data"]["you"] == 0
    await stream.close()
    client = AsyncClient()
    again = await client.get(f"/api/v1/matches/{match_id}/stream/?ticket={ticket}")
    assert again.status_code == 401
    assert json.loads(again.content)["error"]["code"] == "authentication_failed"
    assert (await client.get(f"/api/v1/matches/{match_id}/stream/")).status_code == 401
    stranger = await sync_to_async(new_player)()
    refused = await client.get(f"/api/v1/matches/{match_id}/stream/",
                               headers={"Authorization": f"Token {token_of(stranger)}"})
    assert refused.status_code == 404
    status, issued = await sync_to_async(stranger.post)("/auth/stream-ticket/")
    assert status == 201 and issued["expires_in"] > 0 and issued["ticket"]


async def test_a_finished_match_sent_to_its_end_answers_204():
    player = await sync_to_async(new_player)()
    view = await sync_to_async(create)(player, "gandengyan", {"starting_score": 5}, bots(3))
    rng = random.Random(3)
    while view["status"] != "finished":
        view = (await sync_to_async(player.post)(
            f"/matches/{view['id']}/act/",
            {"expected_version": view["version"], "action": choose(view, rng)}))[1]
    done = await AsyncClient().get(f"/api/v1/matches/{view['id']}/stream/",
                                   headers={"Authorization": f"Token {token_of(player)}",
                                            "Last-Event-ID": str(view["last_event_seq"])})
    assert done.status_code == 204


async def test_the_account_stream_tells_of_seats_and_turns_in_every_match():
    first = await sync_to_async(new_player)()
    second = await sync_to_async(new_player)()
    stream = await open_stream("/stream/", token_of(second))
    try:
        (listed,) = await stream.next()
        assert listed["event"] == "matches" and listed["data"] == []
        view = await sync_to_async(create)(first, "510k", {"players": 2, "rounds": 1},
                                           [{"type": "human"}, {"type": "human"}])
        await sync_to_async(second.post)("/matches/join/", {"code": view["invite_code"]})
        said = []
        while not any(m["event"] == "match_started" for m in said):
            said += await stream.next()
        assert said[0]["event"] == "seated" and said[0]["data"]["match"] == view["id"]
        match_id, rng = view["id"], random.Random(4)
        while (await sync_to_async(first.get)(f"/matches/{match_id}/"))[1]["your_turn"]:
            await sync_to_async(act)(first, match_id, rng)  # until the second person is to act
        while not any(m["event"] == "your_turn" for m in said):
            said += await stream.next()
        turn = next(m for m in said if m["event"] == "your_turn")
        assert turn["data"]["match"] == match_id
        await sync_to_async(act)(second, match_id, rng)
        said = []
        while not any(m["event"] == "turn_passed" for m in said):
            said += await stream.next()
        assert next(m for m in said if m["event"] == "turn_passed")["data"]["match"] == match_id
    finally:
        await stream.close()


async def test_a_move_whose_notice_was_lost_reaches_the_stream_at_the_next_look(
        monkeypatch, settings):
    settings.STREAM_LOOK_SECONDS = 0.2
    first, second, match_id = await sync_to_async(two_people)()
    stream = await open_stream(f"/matches/{match_id}/stream/", token_of(first))
    try:
        await stream.next()
        monkeypatch.setattr(live, "publish", lambda channel, notice: None)
        who = await sync_to_async(mover)(first, second, match_id)
        after = await sync_to_async(act)(who, match_id, random.Random(5))
        (update,) = await stream.next()
        assert update["event"] == "update" and update["data"]["version"] == after["version"]
    finally:
        await stream.close()


async def test_a_stream_answers_other_methods_with_a_405_in_the_error_shape():
    refused = await AsyncClient().post("/api/v1/stream/")
    assert refused.status_code == 405 and refused["Allow"] == "GET"
    assert json.loads(refused.content)["error"]["code"] == "method_not_allowed"


async def test_a_database_away_answers_503_at_the_opening_and_ends_an_open_stream(monkeypatch):
    first, second, match_id = await sync_to_async(two_people)()
    stream = await open_stream(f"/matches/{match_id}/stream/", token_of(first))
    await stream.next()

    def away(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(streams.selectors.sql, "match_row", away)
    refused = await AsyncClient().get(f"/api/v1/matches/{match_id}/stream/",
                                      headers={"Authorization": f"Token {token_of(first)}"})
    assert refused.status_code == 503 and refused["Retry-After"]
    assert json.loads(refused.content)["error"]["code"] == "unavailable"
    monkeypatch.undo()
    who = await sync_to_async(mover)(first, second, match_id)
    await sync_to_async(act)(who, match_id, random.Random(6))
    monkeypatch.setattr(streams.selectors.sql, "match_row", away)
    with pytest.raises(StopAsyncIteration):
        await stream.next()


def waiting_quick_match() -> tuple[Client, int]:
    """A quick match whose wait for people ends a second from now."""
    Table.objects.create(name="quick", slug="quick", ruleset="gandengyan", bots_after=30,
                         options=get_ruleset("gandengyan").parse_options({}))
    person = new_player()
    status, view = person.post("/tables/quick/play/")
    assert status == 201 and view["status"] == "waiting", view
    soon = timezone.now() + timedelta(seconds=1)
    Match.objects.filter(pk=view["id"]).update(bots_fill_at=soon, due_at=soon)
    return person, view["id"]


async def test_a_waiting_match_starts_on_its_stream_when_its_wait_ends_with_no_other_request():
    person, match_id = await sync_to_async(waiting_quick_match)()
    stream = await open_stream(f"/matches/{match_id}/stream/", token_of(person))
    try:
        (first,) = await stream.next()
        assert first["data"]["status"] == "waiting" and first["data"]["bots_fill_at"]
        said = []
        while not any(m["data"].get("changed", {}).get("status") == "active" for m in said):
            said += await stream.next()
        assert "bots_joined" in [e["type"] for m in said for e in m["data"]["events"]]
    finally:
        await stream.close()


async def test_the_account_stream_starts_a_waiting_match_when_its_wait_ends():
    person, match_id = await sync_to_async(waiting_quick_match)()
    stream = await open_stream("/stream/", token_of(person))
    try:
        (listed,) = await stream.next()
        assert [m["status"] for m in listed["data"]] == ["waiting"]
        said = []
        while not any(m["event"] == "match_started" for m in said):
            said += await stream.next()
        assert next(m for m in said if m["event"] == "match_started")["data"]["match"] == match_id
    finally:
        await stream.close()


async def test_in_the_embedded_mode_the_stream_plays_on_what_a_request_left_due(settings):
    settings.EMBEDDED_TURN_SECONDS = 0  # each request plays one server turn
    person = await sync_to_async(new_player)()
    view = await sync_to_async(create)(person, "gandengyan", {"starting_score": 10},
                                       bots(3, "random"))
    stream = await open_stream(f"/matches/{view['id']}/stream/", token_of(person))
    try:
        await stream.next()
        status, after = await sync_to_async(person.post)(f"/matches/{view['id']}/autoplay/",
                                                         {"on": True})
        assert status == 200 and after["status"] == "active"
        said = []
        while not said or said[-1]["data"]["version"] < after["version"] + 3:
            said += await stream.next()  # turns no request played
    finally:
        await stream.close()


async def test_in_the_embedded_mode_the_stream_plays_each_paced_turn_at_its_time():
    pace = 0.3
    person = await sync_to_async(new_player)()
    view = await sync_to_async(create)(
        person, "gandengyan", {"starting_score": 10, "server_pace_ms": int(pace * 1000)},
        bots(3, "random"))
    stream = await open_stream(f"/matches/{view['id']}/stream/", token_of(person))
    try:
        await stream.next()
        status, after = await sync_to_async(person.post)(f"/matches/{view['id']}/autoplay/",
                                                         {"on": True})
        assert status == 200 and after["version"] <= view["version"] + 1  # none played yet
        arrived = []
        while len(arrived) < 4:
            for message in await stream.next():
                arrived.append((asyncio.get_running_loop().time(), message["data"]["version"]))
    finally:
        await stream.close()
    versions = [version for _, version in arrived]
    assert versions == list(range(versions[0], versions[0] + 4))  # one server move at a time
    times = [at for at, _ in arrived]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert all(gap >= pace * 0.9 for gap in gaps), gaps


def test_changed_applied_over_the_view_held_gives_the_new_view():
    before = {"version": 3, "status": "active", "last_event_seq": 9, "clock": None,
              "bots_fill_at": None, "gone": 1, "events": [1],
              "state": {"hand": [1, 2], "face_up": {"card": 5}, "trick": []}}
    after = {"version": 4, "status": "active", "last_event_seq": 9, "clock": None,
             "new": None, "events": [2], "state": {"hand": [1], "trick": []}}
    changed = streams._changed(streams.Sent.of(before), streams.Sent.of(after), after)
    assert changed == {"version": 4, "bots_fill_at": None, "gone": None, "new": None,
                       "state": {"hand": [1], "face_up": None}}


def test_a_stream_keeps_its_view_out_of_the_garbage_collectors_sight():
    view = {"version": 4, "status": "active", "last_event_seq": 9, "clock": None,
            "seats": [{"name": "a", "score": 1}], "events": [{"seq": 9}],
            "state": {"hand": [{"id": 1}], "trick": [[{"id": 2}]]}}
    sent = streams.Sent.of(view)
    assert not gc.is_tracked(sent.top) and not gc.is_tracked(sent.state)


def test_the_threads_of_a_process_publish_through_one_client(settings):
    # A request runs in a thread of its own under ASGI: a client per thread was a connection
    # per act.
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"
    live._redis.cache_clear()
    clients = []
    threads = [threading.Thread(target=lambda: clients.append(live._redis())) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    live._redis.cache_clear()
    assert clients[0] is clients[1]
