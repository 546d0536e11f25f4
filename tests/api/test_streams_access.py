"""Access that ends ends the live streams it opened (in-process, no Redis): a token logged out,
logged out everywhere, revoked, expired, or its account deactivated; a ticket goes with its
token; an account keeps at most STREAM_MAX_PER_ACCOUNT streams open; and the look covers an
account's matches when notices are lost."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from django.utils import timezone

from accounts import tokens
from accounts.models import AuthToken, User
from games import live
from tests.api.test_streams import open_stream, token_of, two_people
from tests.matchplay import Client, bots, counted_seeds, create, new_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "access")


@pytest.fixture
def no_look(settings):
    """Only a notice ends a stream: the look at the tokens is put off past every test's wait."""
    settings.STREAM_TOKEN_LOOK_SECONDS = 600


@pytest.fixture
def lost_notices(monkeypatch):
    """Every notice is lost, as when Redis is away: only the looks tell the streams."""
    monkeypatch.setattr(live, "publish", lambda channel, notice: None)


async def last_message(stream) -> dict:
    """What the stream says until it ends; its last message."""
    said = []
    with pytest.raises(StopAsyncIteration):
        while True:
            said += await stream.next()
    return said[-1]


async def ended(stream, event: str = "revoked", code: str = "revoked") -> None:
    last = await last_message(stream)
    assert (last["event"], last["data"]["code"]) == (event, code)


def open_streams(person: Client, match_id: int) -> list:
    return [f"/matches/{match_id}/stream/", "/stream/"]


async def both_streams(person: Client, match_id: int, token: str | None = None) -> list:
    token = token or token_of(person)
    streams = [await open_stream(path, token) for path in open_streams(person, match_id)]
    for stream in streams:
        await stream.next()
    return streams


async def test_logging_out_ends_the_tokens_streams_at_once_and_not_the_others(no_look):
    first, second, match_id = await sync_to_async(two_people)()
    mine = await both_streams(first, match_id)
    theirs = await both_streams(second, match_id)
    status, _ = await sync_to_async(first.post)("/auth/logout/")
    assert status == 204
    for stream in mine:
        await ended(stream)
    for stream in theirs:  # still open: nothing more to say within a moment
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(stream.next(), 0.5)
        await stream.close()


async def test_logging_out_everywhere_ends_the_streams_of_every_token_of_the_account(no_look):
    first, second, match_id = await sync_to_async(two_people)()
    user = await sync_to_async(User.objects.get)(username=await username(first))
    elsewhere = (await sync_to_async(tokens.issue)(user)).key  # signed in on another device
    streams = [*await both_streams(first, match_id), *await both_streams(first, match_id,
                                                                         elsewhere)]
    status, _ = await sync_to_async(first.post)("/auth/logout/", {"everywhere": True})
    assert status == 204
    for stream in streams:
        await ended(stream)


async def test_staff_revoking_a_token_or_deactivating_its_account_ends_its_streams(no_look):
    first, second, match_id = await sync_to_async(two_people)()
    revoked = await both_streams(first, match_id)
    name = await username(first)
    await sync_to_async(lambda: AuthToken.objects.get(user__username=name).delete())()
    for stream in revoked:
        await ended(stream)
    deactivated = await both_streams(second, match_id)
    user = await sync_to_async(User.objects.get)(username=await username(second))
    user.is_active = False
    await sync_to_async(user.save)()
    for stream in deactivated:
        await ended(stream)


async def username(person: Client) -> str:
    return (await sync_to_async(person.get)("/auth/me/"))[1]["username"]


async def test_an_expired_token_or_a_revocation_whose_notice_was_lost_ends_at_the_look(
        settings, lost_notices):
    settings.STREAM_TOKEN_LOOK_SECONDS = 0.2
    first, second, match_id = await sync_to_async(two_people)()
    expiring = await both_streams(first, match_id)
    await sync_to_async(AuthToken.objects.filter(user__username=await username(first)).update)(
        expires_at=timezone.now())
    for stream in expiring:
        await ended(stream)
    lost = await both_streams(second, match_id)
    status, _ = await sync_to_async(second.post)("/auth/logout/")
    assert status == 204
    for stream in lost:
        await ended(stream)


async def test_a_ticket_opens_nothing_once_its_token_is_logged_out_or_expired(no_look):
    first, second, match_id = await sync_to_async(two_people)()
    tickets = []
    for person in (first, second):
        status, issued = await sync_to_async(person.post)("/auth/stream-ticket/")
        assert status == 201
        tickets.append(issued["ticket"])
    await sync_to_async(first.post)("/auth/logout/")
    await sync_to_async(AuthToken.objects.filter(user__username=await username(second)).update)(
        expires_at=timezone.now())
    for ticket in tickets:
        refused = await AsyncClient().get(f"/api/v1/matches/{match_id}/stream/?ticket={ticket}")
        assert refused.status_code == 401
        assert json.loads(refused.content)["error"]["code"] == "authentication_failed"


async def test_a_stream_opened_with_a_ticket_ends_with_the_token_that_asked_for_it(no_look):
    first, _, match_id = await sync_to_async(two_people)()
    status, issued = await sync_to_async(first.post)("/auth/stream-ticket/")
    stream = await open_stream(f"/matches/{match_id}/stream/?ticket={issued['ticket']}")
    await stream.next()
    await sync_to_async(first.post)("/auth/logout/")
    await ended(stream)


async def test_one_stream_more_than_the_account_may_keep_open_ends_its_oldest(settings, no_look):
    settings.STREAM_MAX_PER_ACCOUNT = 2
    first, _, match_id = await sync_to_async(two_people)()
    oldest, kept = await both_streams(first, match_id)
    newest = await open_stream("/stream/", token_of(first))
    await newest.next()
    await ended(oldest, "closed", "too_many_streams")
    for stream in (kept, newest):
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(stream.next(), 0.5)
        await stream.close()


async def test_with_every_notice_lost_the_account_stream_hears_of_a_new_match_and_its_turns(
        settings, lost_notices):
    settings.STREAM_LOOK_SECONDS = 0.2
    person = await sync_to_async(new_player)()
    stream = await open_stream("/stream/", token_of(person))
    try:
        (listed,) = await stream.next()
        assert listed["data"] == []
        view = await sync_to_async(create)(person, "gandengyan", {"starting_score": 10},
                                           bots(3, "random"))
        said = []
        while not any(m["event"] == "your_turn" for m in said):
            said += await stream.next()
        seated = next(m for m in said if m["event"] == "seated")
        assert seated["data"]["match"] == view["id"]
        turn = next(m for m in said if m["event"] == "your_turn")["data"]
        now = (await sync_to_async(person.get)(f"/matches/{view['id']}/"))[1]
        assert turn == {"match": view["id"], "version": now["version"]}
    finally:
        await stream.close()


async def test_the_joiners_account_stream_hears_its_turn_when_bots_move_inside_the_join(
        settings):
    settings.STREAM_LOOK_SECONDS = 600  # nothing but the notices
    for _ in range(12):  # until a deal where bots move inside the join up to the joiner's turn
        owner, joiner = [await sync_to_async(new_player)() for _ in range(2)]
        view = await sync_to_async(create)(owner, "gandengyan", {"starting_score": 10},
                                           [{"type": "human"}, {"type": "bot"},
                                            {"type": "human"}, {"type": "bot"}])
        stream = await open_stream("/stream/", token_of(joiner))
        try:
            await stream.next()
            status, joined = await sync_to_async(joiner.post)(
                "/matches/join/", {"code": view["invite_code"]})
            assert status == 200, joined
            seated = (await stream.next())[0]
            if not joined["your_turn"] or joined["version"] == seated["data"]["version"]:
                continue
            said = []
            while not any(m["event"] == "your_turn" for m in said):
                said += await asyncio.wait_for(stream.next(), 2)
            turn = next(m for m in said if m["event"] == "your_turn")["data"]
            assert turn == {"match": view["id"], "version": joined["version"]}
            return
        finally:
            await stream.close()
    raise AssertionError("no deal had bots move inside the join")


async def test_a_refreshed_token_or_an_upgraded_guest_keeps_its_streams(settings):
    settings.STREAM_TOKEN_LOOK_SECONDS = 0.2  # the look finds the token good: same row
    first, second, match_id = await sync_to_async(two_people)()
    refreshed = await both_streams(first, match_id)
    status, issued = await sync_to_async(first.post)("/auth/refresh/")
    assert status == 200
    upgraded = await both_streams(second, match_id)
    status, issued = await sync_to_async(second.post)(
        "/auth/upgrade/", {"username": "lin", "password": "a long pass phrase 7"})
    assert status == 200, issued
    for stream in (*refreshed, *upgraded):  # nothing to say, and not ended
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(stream.next(), 1)
        await stream.close()
