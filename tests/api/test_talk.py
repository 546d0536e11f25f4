"""Table talk (快捷语): the phrase list, a phrase told to the match's seats and spectators over
its stream and stored nowhere, who may talk, and the per-person limit."""

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from games import talk
from games.models import Event, Match, Move
from tests.api.test_streams import Stream
from tests.matchplay import bots, counted_seeds, new_player

TWO_PEOPLE = [{"type": "human"}] * 2 + [{"type": "bot", "level": "random"}] * 2


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "talk")


def match_of_two(owner, friend, watchable=True) -> dict:
    status, view = owner.post("/matches/", {"ruleset": "gandengyan", "seats": TWO_PEOPLE,
                                            "watchable": watchable})
    assert status == 201, view
    assert friend.post("/matches/join/", {"code": view["invite_code"]})[0] == 200
    return owner.get(f"/matches/{view['id']}/")[1]


def token(client) -> str:
    return client.headers["Authorization"].split()[1]


@pytest.mark.django_db
def test_the_phrases_are_listed_in_english_and_chinese(client):
    data = client.get("/api/v1/phrases/").json()["results"]
    assert [p["key"] for p in data] == list(talk.KEYS)
    assert all(p["text"]["en"] and p["text"]["zh"] for p in data)
    assert {p["kind"] for p in data} == {"phrase", "emoji"}


@pytest.mark.django_db(transaction=True)
async def test_a_phrase_reaches_the_other_seats_and_spectators_and_is_stored_nowhere():
    owner, friend, viewer = [await sync_to_async(new_player)() for _ in range(3)]
    view = await sync_to_async(match_of_two)(owner, friend)
    streams = []
    for reader in (friend, viewer):
        response = await AsyncClient().get(f"/api/v1/matches/{view['id']}/stream/",
                                           headers={"Authorization": f"Token {token(reader)}"})
        assert response.status_code == 200
        streams.append(Stream(response))
    try:
        for stream in streams:
            assert (await stream.next())[0]["event"] == "view"
        moves, events = await Move.objects.acount(), await Event.objects.acount()
        status, said = await sync_to_async(owner.post)(f"/matches/{view['id']}/talk/",
                                                       {"phrase": "nice_play"})
        assert status == 202, said
        for stream in streams:
            message = (await stream.next())[0]
            assert message["event"] == "talk" and message["id"] is None
            assert message["data"]["seat"] == 0 and message["data"]["phrase"] == "nice_play"
        assert (await Move.objects.acount(), await Event.objects.acount()) == (moves, events)
        match = await Match.objects.aget(pk=view["id"])
        assert match.version == view["version"]
    finally:
        for stream in streams:
            await stream.close()


@pytest.mark.django_db
def test_only_players_talk_in_a_match_in_play_with_a_listed_phrase():
    owner, friend, viewer = new_player(), new_player(), new_player()
    view = match_of_two(owner, friend)
    url = f"/matches/{view['id']}/talk/"
    status, refused = owner.post(url, {"phrase": "shout at them"})
    assert status == 400 and refused["error"]["details"]["field"] == "phrase"
    status, refused = viewer.post(url, {"phrase": "hello"})
    assert status == 403 and refused["error"]["code"] == "forbidden"
    private = match_of_two(owner, friend, watchable=False)
    assert viewer.post(f"/matches/{private['id']}/talk/", {"phrase": "hello"})[0] == 404
    Match.objects.filter(pk=view["id"]).update(status=Match.Status.FINISHED)
    status, refused = owner.post(url, {"phrase": "bye"})
    assert status == 409 and refused["error"]["code"] == "match_over"


@pytest.mark.django_db
def test_a_person_says_ten_phrases_a_minute_at_most():
    owner = new_player()
    status, view = owner.post("/matches/", {"ruleset": "gandengyan", "seats": bots(3)})
    url = f"/matches/{view['id']}/talk/"
    for _ in range(10):
        assert owner.post(url, {"phrase": "thumbs_up"})[0] == 202
    status, refused = owner.post(url, {"phrase": "thumbs_up"})
    assert status == 429 and refused["error"]["code"] == "throttled"
    assert refused["error"]["details"]["wait_seconds"] > 0
