"""Absent players (issue 21): when every person at a table is in 托管 because their clock ran out
(none acted since), the match pauses at the end of the round; it resumes when one of them takes
their seat back (or hands it over on purpose: present), and a match paused longer than
PAUSE_ABANDON_SECONDS is abandoned with the reason in its events."""

from datetime import timedelta

import pytest
from django.utils import timezone

from bots.tasks import recover
from games import services
from games.api.streams import _account_events
from games.models import Event, Match, Seat
from tests.matchplay import bots as bot_seats
from tests.matchplay import counted_seeds, create, new_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "pause")


def clock_runs_out(person, match_id: int) -> dict:
    """The person to act lets their clock run out; their view after the server played on."""
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match_id).update(deadline_at=past, due_at=past)
    return person.get(f"/matches/{match_id}/")[1]


def my_turn(person, view: dict) -> dict:
    """The person's view once it is their turn (the bots play at once: no pace in the tests)."""
    while not view["your_turn"]:
        assert view["status"] == "active", view["status"]
        view = person.post(f"/matches/{view['id']}/act/", {
            "expected_version": view["version"], "action": view["legal_actions"][0]})[1] \
            if view["your_turn"] else person.get(f"/matches/{view['id']}/")[1]
    return view


def away(person, rounds: int = 3) -> dict:
    """A person alone with a bot whose clock ran out: the match as it stands afterwards."""
    view = create(person, "highcard", {"players": 2, "rounds": rounds, "turn_seconds": 10},
                  bot_seats(1))
    return clock_runs_out(person, my_turn(person, view)["id"])


def types(match_id: int) -> list[str]:
    return list(Event.objects.filter(match_id=match_id).values_list("data__type", flat=True))


def test_a_match_whose_people_all_ran_out_of_time_pauses_at_the_end_of_the_round(settings):
    person = new_player()
    view = away(person)
    assert view["status"] == "paused" and view["to_act"] is None
    assert view["round"]["number"] == 1 and view["seats"][0]["autoplay"] == "timeout"
    assert types(view["id"])[-2:] == ["round_settled", "match_paused"]
    paused = Event.objects.get(match_id=view["id"], data__type="match_paused").data
    match = Match.objects.get(pk=view["id"])
    assert paused["reason"] == "away" and match.due_at.isoformat() == paused["abandon_at"]
    assert match.due_at - timezone.now() == pytest.approx(
        timedelta(seconds=settings.PAUSE_ABANDON_SECONDS), abs=timedelta(seconds=5))
    assert set(Seat.objects.filter(match=match).values_list("match_status", flat=True)) == \
        {"paused"}
    listed = person.get("/matches/?status=paused")[1]["results"]
    assert [m["id"] for m in listed] == [view["id"]]
    status, refused = person.post(f"/matches/{view['id']}/act/", {
        "expected_version": view["version"], "action": {"type": "pass"}})
    assert status == 409 and refused["error"]["code"] == "match_paused"


def test_taking_the_seat_back_resumes_it_with_the_next_round():
    person = new_player()
    view = away(person)
    status, view = person.post(f"/matches/{view['id']}/autoplay/", {"on": False})
    assert status == 200 and view["status"] == "active"
    assert view["round"]["number"] == 2 and view["seats"][0]["autoplay"] is None
    after = types(view["id"])
    after = after[after.index("match_paused") + 1:]
    assert after[:3] == ["autoplay_off", "match_resumed", "round_started"]


def test_handing_the_seat_over_on_purpose_resumes_it_and_the_server_plays_on():
    person = new_player()
    view = away(person)
    status, view = person.post(f"/matches/{view['id']}/autoplay/", {"on": True})
    assert status == 200 and view["seats"][0]["autoplay"] == "asked"
    assert view["status"] == "finished"  # present: no pause at the next rounds' ends
    assert types(view["id"]).count("match_paused") == 1


def test_a_person_who_asked_for_autoplay_is_present():
    person = new_player()
    view = create(person, "highcard", {"players": 2, "rounds": 3}, bot_seats(1))
    status, view = person.post(f"/matches/{view['id']}/autoplay/", {"on": True})
    assert view["status"] == "finished" and "match_paused" not in types(view["id"])


def test_one_person_present_keeps_the_match_going():
    first, second = new_player(), new_player()
    view = create(first, "highcard", {"players": 3, "rounds": 3, "turn_seconds": 10},
                  [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "random"}])
    second.post("/matches/join/", {"code": view["invite_code"]})
    views = {0: first, 1: second}
    view = first.get(f"/matches/{view['id']}/")[1]
    timed_out = set()
    while len(timed_out) < 2 and view["status"] == "active":
        if view["to_act"] in views and view["seats"][view["to_act"]]["autoplay"] is None:
            timed_out.add(view["to_act"])
            view = clock_runs_out(first, view["id"])
        else:
            view = first.get(f"/matches/{view['id']}/")[1]
        # Paused only once both ran out of time, and only between rounds.
        assert view["status"] != "paused" or (len(timed_out) == 2 and view["to_act"] is None)
    assert len(timed_out) == 2 and view["status"] == "paused"
    assert sum(1 for t in types(view["id"]) if t == "round_started") >= 1


def test_a_match_paused_too_long_is_abandoned_by_the_sweep_with_its_reason():
    person = new_player()
    view = away(person)
    Match.objects.filter(pk=view["id"]).update(due_at=timezone.now() - timedelta(seconds=1))
    assert recover() == 1
    view = person.get(f"/matches/{view['id']}/")[1]
    assert view["status"] == "aborted"
    aborted = Event.objects.filter(match_id=view["id"]).last().data
    assert aborted["type"] == "match_aborted" and aborted["by"] == "server"
    assert aborted["reason"] == "abandoned: everyone was away and nobody came back within 24 h"
    assert Match.objects.get(pk=view["id"]).due_at is None
    assert recover() == 0


def test_a_read_abandons_a_match_past_its_time_and_a_return_is_never_abandoned():
    person, other = new_player(), new_player()
    late = away(person)
    Match.objects.filter(pk=late["id"]).update(due_at=timezone.now())
    assert person.get(f"/matches/{late['id']}/")[1]["status"] == "aborted"
    back = away(other)
    other.post(f"/matches/{back['id']}/autoplay/", {"on": False})
    assert not services.match_abandon(match_id=back["id"], version=back["version"])
    assert Match.objects.get(pk=back["id"]).status == "active"


def test_staff_may_stop_a_paused_match():
    view = away(new_player())
    services.match_abort(match_id=view["id"], reason="nobody there")
    assert Match.objects.get(pk=view["id"]).status == "aborted"


def test_the_account_stream_says_a_match_paused_and_resumed():
    mine = {"match": 4, "seat": 0, "status": "active", "version": 9, "your_turn": False}
    notice = {"match": 4, "version": 10, "status": "paused", "to_act": None,
              "types": ["match_paused", "round_settled"]}
    assert _account_events(mine, notice) == [("match_paused", {"match": 4, "version": 10})]
    mine["status"] = "paused"
    notice = {**notice, "version": 12, "status": "active", "types": ["match_resumed"]}
    assert _account_events(mine, notice) == [("match_resumed", {"match": 4, "version": 12})]
