"""Play again: a finished match's rematch, same options and seats, one per match; its people
accept (take the seat kept for them) or decline (a bot takes it), and bots take the seats still
open when the wait is over; the others hear of it on their account stream. A refusal changes
nothing. tests/integration/test_rematch.py races two people asking at once on PostgreSQL."""

import random
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from bots.tasks import recover
from games.engine.registry import get_ruleset
from games.models import Event, Match, Table
from tests.api.test_streams import open_stream, token_of
from tests.matchplay import counted_seeds, create, new_player, played_out

pytestmark = pytest.mark.django_db(transaction=True)
OPTIONS = {"players": 3, "rounds": 1}
SEATS = [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "hard"}]


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "rematch")


@pytest.fixture
def finished():
    """Two people and a hard bot played a high-card match to its end: (first, second, id)."""
    first, second = new_player(), new_player()
    view = create(first, "highcard", {**OPTIONS, "turn_seconds": 45}, SEATS)
    second.post("/matches/join/", {"code": view["invite_code"]})
    played_out([first, second], view["id"], random.Random(3))
    return first, second, view["id"]


def refused(answer) -> tuple[int, str]:
    status, data = answer
    return status, data["error"]["code"]


def test_play_again_opens_the_same_match_with_each_persons_seat_kept(finished):
    first, second, old_id = finished
    old = first.get(f"/matches/{old_id}/")[1]
    status, view = second.post(f"/matches/{old_id}/rematch/")
    assert status == 201 and view["id"] != old_id and view["status"] == "waiting"
    assert (view["ruleset"], view["options"], view["options_hash"]) == (
        old["ruleset"], old["options"], old["options_hash"])
    assert view["you"] == 1 and view["clock"]["turn_seconds"] == 45
    assert [(s["kind"], s["level"], s["open"]) for s in view["seats"]] == [
        ("human", None, True), ("human", None, False), ("bot", "hard", False)]
    waited = Match.objects.get(pk=view["id"]).bots_fill_at - timezone.now()
    assert timedelta(seconds=50) < waited <= timedelta(seconds=60)
    offer = first.get(f"/matches/{old_id}/")[1]
    assert offer["rematch"] == {
        "id": view["id"], "status": "waiting", "bots_fill_at": view["bots_fill_at"],
        "asked_by": 1, "seats": [{"seat": 0, "answer": "pending"},
                                 {"seat": 1, "answer": "accepted"}], "yours": "pending"}
    assert offer["version"] == old["version"] + 1
    assert offer["events"][-1] | {"seq": 0} == {"seq": 0, "round": old["round"]["number"],
                                               "version": offer["version"],
                                               "type": "rematch_offered",
                                               "match": view["id"], "seat": 1}
    listed = first.get("/matches/?status=finished")[1]["results"][0]
    assert listed["rematch"]["yours"] == "pending"


def test_each_person_who_accepts_takes_their_seat_and_the_last_one_starts_it(finished):
    first, second, old_id = finished
    new_id = first.post(f"/matches/{old_id}/rematch/")[1]["id"]
    status, view = second.post(f"/matches/{old_id}/rematch/")
    assert status == 200 and view["id"] == new_id and view["status"] == "active"
    assert view["you"] == 1 and view["seats"][2]["level"] == "hard"
    assert second.post(f"/matches/{old_id}/rematch/")[1]["id"] == new_id  # asked twice
    assert first.post(f"/matches/{old_id}/rematch/")[0] == 200
    offer = first.get(f"/matches/{old_id}/")[1]["rematch"]
    assert offer["status"] == "active" and offer["bots_fill_at"] is None
    assert [s["answer"] for s in offer["seats"]] == ["accepted", "accepted"]
    assert Match.objects.filter(rematch_of=old_id).count() == 1


def test_a_seat_declined_goes_to_a_bot_and_the_rematch_starts(finished):
    first, second, old_id = finished
    new_id = first.post(f"/matches/{old_id}/rematch/")[1]["id"]
    status, view = second.post(f"/matches/{old_id}/rematch/decline/")
    assert status == 200 and view["id"] == old_id
    assert view["rematch"]["seats"] == [{"seat": 0, "answer": "accepted"},
                                        {"seat": 1, "answer": "bot"}]
    assert view["rematch"]["yours"] == "bot" and view["rematch"]["status"] == "active"
    rematch = first.get(f"/matches/{new_id}/")[1]
    assert [s["kind"] for s in rematch["seats"]] == ["human", "bot", "bot"]
    assert second.post(f"/matches/{old_id}/rematch/decline/")[0] == 200  # nothing changes
    assert refused(second.post(f"/matches/{old_id}/rematch/")) == (409, "rematch_closed")
    assert second.get(f"/matches/{new_id}/")[0] == 404


@pytest.mark.parametrize("by", ["the sweep", "a read"])
def test_bots_take_the_seats_nobody_answered_for_when_the_wait_is_over(finished, by):
    first, second, old_id = finished
    new_id = first.post(f"/matches/{old_id}/rematch/")[1]["id"]
    assert recover() == 0  # not due yet
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=new_id).update(bots_fill_at=past, due_at=past)
    if by == "the sweep":
        assert recover() == 1
    view = first.get(f"/matches/{new_id}/")[1]
    assert view["status"] == "active" and view["seats"][1]["kind"] == "bot"
    assert refused(second.post(f"/matches/{old_id}/rematch/")) == (409, "rematch_closed")
    assert second.get(f"/matches/{old_id}/")[1]["rematch"]["yours"] == "bot"


def test_a_rematch_is_refused_before_the_end_and_to_anyone_but_its_people(finished):
    first, second, old_id = finished
    stranger = new_player()
    active = create(first, "highcard", OPTIONS, [{"type": "human"}, {"type": "bot"},
                                                 {"type": "bot"}])
    before = Match.objects.count(), Event.objects.count()
    assert refused(first.post(f"/matches/{active['id']}/rematch/")) == (409,
                                                                         "match_not_finished")
    assert refused(stranger.post(f"/matches/{old_id}/rematch/")) == (404, "not_found")
    assert refused(first.post(f"/matches/{old_id}/rematch/decline/")) == (409, "no_rematch")
    assert (Match.objects.count(), Event.objects.count()) == before
    rematch = first.post(f"/matches/{old_id}/rematch/")[1]
    assert refused(stranger.post("/matches/join/", {"code": rematch["invite_code"]})) == (
        409, "match_full")  # the open seat is kept for the second person


def test_a_stranger_playing_at_the_table_is_never_seated_at_its_rematch():
    Table.objects.create(name="quick", slug="quick", ruleset="highcard", bots_after=30,
                         options=get_ruleset("highcard").parse_options(OPTIONS))
    first, second = new_player(), new_player()
    old_id = first.post("/tables/quick/play/")[1]["id"]
    second.post("/tables/quick/play/")
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=old_id).update(bots_fill_at=past, due_at=past)
    played_out([first, second], old_id, random.Random(5))
    rematch = first.post(f"/matches/{old_id}/rematch/")[1]
    status, view = new_player().post("/tables/quick/play/")
    assert status == 201 and view["id"] != rematch["id"]


async def test_the_others_hear_of_the_offer_on_their_account_stream(finished):
    first, second, old_id = finished
    stream = await open_stream("/stream/", token_of(second))
    try:
        assert (await stream.next())[0]["event"] == "matches"
        status, view = await sync_to_async(first.post)(f"/matches/{old_id}/rematch/")
        said = []
        while not any(m["event"] == "rematch_offered" for m in said):
            said += await stream.next()
        offered = next(m for m in said if m["event"] == "rematch_offered")
        assert offered["data"] == {"match": old_id, "rematch": view["id"], "seat": 0}
    finally:
        await stream.close()
