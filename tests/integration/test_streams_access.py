"""Access that ends ends streams across web processes (tests/integration/stack.py: two web
servers, each gunicorn with two uvicorn workers, on one private PostgreSQL and Redis): a stream
served by one server ends within 2 s of its token being logged out everywhere (on the other
server), revoked by staff or expiring, with Redis up and with Redis stopped; a ticket asked for
before a logout opens nothing after it; with Redis stopped an account stream still announces a
turn; and an account's streams are capped across the servers."""

import asyncio
import random
import time

import psycopg
import pytest

from tests.integration.stack import Stack, two_web_servers
from tests.matchplay import Client, choose, create, http_sender, sign_in
from tests.sse import EventStream

ENDS_WITHIN = 2.0  # seconds, the bound
WAIT = 15
LOOK = 1  # STREAM_LOOK_SECONDS
MOST = 3  # STREAM_MAX_PER_ACCOUNT


@pytest.fixture(scope="module")
def stack():
    with two_web_servers(STREAM_LOOK_SECONDS=str(LOOK),
                         STREAM_MAX_PER_ACCOUNT=str(MOST)) as stack:
        yield stack


@pytest.fixture(params=["redis up", "redis stopped"])
def redis(request, stack):
    """The stack's own Redis (never the machine's), running or stopped for the test."""
    running = "redis" in stack.processes
    if request.param == "redis up" and not running:
        stack.start_redis()
    if request.param == "redis stopped" and running:
        stack.kill("redis")
    return request.param


def person(stack: Stack, port: int | None = None) -> Client:
    client = Client(http_sender(f"http://127.0.0.1:{port or stack.web_port}"))
    sign_in(client)
    return client


def on(stack: Stack, client: Client) -> Client:
    """The same person, through the second server."""
    other = Client(http_sender(f"http://127.0.0.1:{stack.second_port}"))
    other.headers = dict(client.headers)
    return other


def token(client: Client) -> str:
    return client.headers["Authorization"].split()[1]


def table_for_two(stack: Stack) -> tuple[Client, Client, int]:
    first, second = person(stack), person(stack)
    view = create(first, "510k", {"players": 2, "rounds": 3},
                  [{"type": "human"}, {"type": "human"}])
    status, joined = second.post("/matches/join/", {"code": view["invite_code"]})
    assert status == 200, joined
    return first, second, view["id"]


def sql(stack: Stack, statement: str, *args) -> None:
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:{stack.pg_port}/cardtable",
                         autocommit=True) as connection:
        connection.execute(statement, args)


def username(client: Client) -> str:
    return client.get("/auth/me/")[1]["username"]


async def opened(stack: Stack, client: Client) -> list[EventStream]:
    """The person's match and account streams, on the first server, past their first message."""
    _, listed = await asyncio.to_thread(client.get, "/matches/")
    match_id = listed["results"][0]["id"]
    streams = []
    for path in (f"/api/v1/matches/{match_id}/stream/", "/api/v1/stream/"):
        stream = await EventStream.open(stack.web_port, path,
                                        {"Authorization": f"Token {token(client)}"})
        assert stream.status == 200
        assert (await stream.next(WAIT)).event in ("view", "matches")
        streams.append(stream)
    return streams


async def ends_revoked(stream: EventStream, since: float) -> float:
    """Seconds from `since` to the stream's `event: revoked`; it ends after it."""
    while True:
        message = await stream.next(WAIT)
        assert message is not None, "the stream ended without saying why"
        if message.event == "revoked":
            break
        assert message.event in ("update", "matches", "seated", "your_turn", "turn_passed")
    assert await stream.next(WAIT) is None
    await stream.close()
    return message.at - since


def logout_everywhere(stack: Stack, client: Client) -> float:
    status, _ = on(stack, client).post("/auth/logout/", {"everywhere": True})
    assert status == 204
    return time.monotonic()


def staff_revokes(stack: Stack, client: Client) -> float:
    """As staff deleting the token in the admin: a delete through the ORM, in another process."""
    name = username(client)
    done = stack.manage("shell", "-c", "from accounts.models import AuthToken; "
                        f"AuthToken.objects.filter(user__username={name!r}).delete()")
    assert done.returncode == 0, done.stderr
    return time.monotonic()


def expires(stack: Stack, client: Client) -> float:
    """The token runs out a second from now (no write announces that)."""
    name = username(client)
    sql(stack, "UPDATE accounts_authtoken SET expires_at = now() + interval '1 second' "
        "WHERE user_id = (SELECT id FROM accounts_user WHERE username = %s)", name)
    return time.monotonic() + 1


async def test_one_stream_more_than_the_account_may_keep_ends_its_oldest_on_the_other_server(
        stack):
    # First in the module: Redis has been up since the servers started (a notice published
    # while a server's subscription reconnects is lost: this one would come at the next open).
    assert "redis" in stack.processes
    client = await asyncio.to_thread(person, stack)
    auth = {"Authorization": f"Token {token(client)}"}
    streams = []
    for n in range(MOST + 1):  # the oldest on the first server, the last on the second
        port = stack.web_port if n < MOST else stack.second_port
        stream = await EventStream.open(port, "/api/v1/stream/", auth)
        assert (await stream.next(WAIT)).event == "matches"
        streams.append(stream)
        await asyncio.sleep(0.2)  # opened in this order, as Redis counts them
    last = await streams[0].next(WAIT)
    while last.event == "matches":  # the list again, as the server's subscription began
        last = await streams[0].next(WAIT)
    assert (last.event, last.data["code"]) == ("closed", "too_many_streams")
    assert await streams[0].next(WAIT) is None
    for stream in streams[1:]:
        with pytest.raises(TimeoutError):
            while (await stream.next(1)).event == "matches":
                pass
        await stream.close()


@pytest.mark.parametrize("end", [logout_everywhere, staff_revokes, expires],
                         ids=["logout everywhere", "staff revokes", "expiry"])
async def test_access_that_ends_ends_a_stream_served_by_the_other_server(stack, redis, end):
    first, _, _ = await asyncio.to_thread(table_for_two, stack)
    streams = await opened(stack, first)
    since = await asyncio.to_thread(end, stack, first)
    for stream in streams:
        took = await ends_revoked(stream, since)
        print(f"{redis}, {end.__name__}: ended {took:.2f}s after")
        assert took <= ENDS_WITHIN, f"{redis}: the stream ended {took:.2f}s after"


async def test_a_ticket_asked_for_before_a_logout_opens_nothing_after_it(stack, redis):
    first, _, match_id = await asyncio.to_thread(table_for_two, stack)
    status, issued = await asyncio.to_thread(first.post, "/auth/stream-ticket/")
    assert status == 201
    await asyncio.to_thread(logout_everywhere, stack, first)
    stream = await EventStream.open(
        stack.web_port, f"/api/v1/matches/{match_id}/stream/?ticket={issued['ticket']}")
    assert stream.status == 401
    await stream.close()


async def test_with_redis_stopped_an_account_stream_announces_a_turn(stack):
    if "redis" in stack.processes:
        stack.kill("redis")
    waiting = person(stack)
    account = await EventStream.open(stack.web_port, "/api/v1/stream/",
                                     {"Authorization": f"Token {token(waiting)}"})
    assert (await account.next(WAIT)).data == []  # in the lobby: no match yet
    first = await asyncio.to_thread(person, stack, stack.second_port)
    view = await asyncio.to_thread(create, first, "510k", {"players": 2, "rounds": 3},
                                   [{"type": "human"}, {"type": "human"}])
    join = on(stack, waiting)
    status, view = await asyncio.to_thread(join.post, "/matches/join/",
                                           {"code": view["invite_code"]})
    assert status == 200, view
    rng, told = random.Random(8), 0
    # Turns played on the second server, each told to the waiting one, until three were told
    # (how many turns that takes depends on the deal).
    for _ in range(60):
        if told >= 3 or view["status"] != "active":
            break
        if view["your_turn"]:
            status, view = await asyncio.to_thread(
                join.post, f"/matches/{view['id']}/act/",
                {"expected_version": view["version"], "action": choose(view, rng)})
            assert status == 200, view
        _, other = await asyncio.to_thread(first.get, f"/matches/{view['id']}/")
        if other["your_turn"]:
            played = time.monotonic()
            status, after = await asyncio.to_thread(
                first.post, f"/matches/{view['id']}/act/",
                {"expected_version": other["version"], "action": choose(other, rng)})
            assert status == 200, after
            if after["to_act"] == view["you"]:
                message = await account.next(WAIT)
                while message.event != "your_turn":
                    message = await account.next(WAIT)
                assert message.data == {"match": view["id"], "version": after["version"]}
                assert message.at - played <= LOOK + ENDS_WITHIN
                told += 1
        _, view = await asyncio.to_thread(join.get, f"/matches/{view['id']}/")
    await account.close()
    assert told >= 3

