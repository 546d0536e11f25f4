"""Tables that never stall, in the embedded mode (tasks in-process): turn clocks, 托管 (the server
plays a seat), what is due kept in the match row, the recovery sweep, and outages answered
without a 500."""

import random
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

import bots.tasks
from bots.tasks import recover
from games import hooks, sql
from games.models import Event, Match, Move
from tests.matchplay import bots as bot_seats
from tests.matchplay import choose, counted_seeds, create, new_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "clocks")


def two_people(options=None):
    """A 2-player 510k match between two people: (the one to act, the other, their views)."""
    first, second = new_player(), new_player()
    view = create(first, "510k", {"players": 2, "rounds": 1, **(options or {})},
                  [{"type": "human"}, {"type": "human"}])
    second.post("/matches/join/", {"code": view["invite_code"]})
    views = [first.get(f"/matches/{view['id']}/")[1], second.get(f"/matches/{view['id']}/")[1]]
    if views[0]["your_turn"]:
        return first, second, views
    return second, first, views[::-1]


def clock_runs_out(match_id: int) -> None:
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match_id).update(deadline_at=past, due_at=past)


@pytest.mark.parametrize(
    ("options", "people", "seconds"),
    [({}, 1, None), ({}, 2, 30), ({"turn_seconds": None}, 2, None),
     ({"turn_seconds": 12}, 1, 12), ({"turn_seconds": 300}, 2, 300)],
)
def test_the_clock_by_default_and_as_asked(options, people, seconds):
    player = new_player()
    seats = [{"type": "human"}] * people + [{"type": "bot"}] * (4 - people)
    view = create(player, "510k", {"rounds": 1, **options}, seats)
    for _ in range(people - 1):
        new_player().post("/matches/join/", {"code": view["invite_code"]})
    view = player.get(f"/matches/{view['id']}/")[1]
    if seconds is None:
        assert view["clock"] is None
    else:
        assert view["clock"]["turn_seconds"] == seconds


@pytest.mark.parametrize("asked", [4, 301, "30", True, 12.5])
def test_a_clock_out_of_bounds_is_refused(asked):
    status, data = new_player().post("/matches/", {"ruleset": "510k",
                                                   "options": {"turn_seconds": asked}})
    assert status == 400 and data["error"]["code"] == "invalid_option"
    assert data["error"]["details"]["option"] == "turn_seconds"


def test_the_view_shows_the_deadline_of_the_person_to_act():
    mover, _, (view, other) = two_people({"turn_seconds": 20})
    clock = view["clock"]
    assert clock["turn_seconds"] == 20 and 19 <= clock["seconds_left"] <= 20
    assert clock["deadline"] == other["clock"]["deadline"]
    match = Match.objects.get(pk=view["id"])
    assert match.due_at == match.deadline_at


def test_when_the_clock_runs_out_the_server_plays_and_the_seat_goes_into_autoplay():
    mover, other, (view, _) = two_people({"turn_seconds": 10})
    clock_runs_out(view["id"])
    after = other.get(f"/matches/{view['id']}/")[1]  # a request finds it passed: enforced now
    assert after["version"] > view["version"]
    late = Move.objects.filter(match_id=view["id"], seat=view["you"]).order_by("version").first()
    assert (late.actor, late.reason) == ("auto", "timeout")
    seat = after["seats"][view["you"]]
    assert seat["autoplay"] == "timeout"
    switched = Event.objects.get(match_id=view["id"], data__type="autoplay_on")
    assert switched.data == {"type": "autoplay_on", "seat": view["you"], "reason": "timeout"}
    timed_out = Event.objects.filter(match_id=view["id"], data__reason="timeout",
                                     data__actor="auto").exclude(data__type="autoplay_on")
    assert timed_out.exists()


def test_a_seat_in_autoplay_is_played_at_once_until_taken_back():
    # Two rounds: the match is still on when the seat is taken back, however the deal falls.
    mover, other, (view, _) = two_people({"turn_seconds": 10, "rounds": 2})
    status, mine = mover.post(f"/matches/{view['id']}/autoplay/", {"on": True})
    assert status == 200 and mine["seats"][mine["you"]]["autoplay"] == "asked"
    assert mine["version"] > view["version"] and not mine["your_turn"]
    assert mover.post(f"/matches/{view['id']}/autoplay/", {"on": True})[1]["version"] == \
        mine["version"]  # asking twice changes nothing
    rng = random.Random(1)
    for _ in range(6):  # the other person acts; the seat in 托管 answers at once, every time
        theirs = other.get(f"/matches/{view['id']}/")[1]
        if theirs["status"] != "active":
            break
        assert theirs["your_turn"] and theirs["clock"]["deadline"] is not None
        status, theirs = other.post(f"/matches/{view['id']}/act/",
                                    {"expected_version": theirs["version"],
                                     "action": choose(theirs, rng)})
        assert status == 200, theirs
    autos = Move.objects.filter(match_id=view["id"], seat=view["you"], actor="auto")
    assert autos.exists() and set(autos.values_list("reason", flat=True)) <= {"autoplay",
                                                                              "forced"}
    status, back = mover.post(f"/matches/{view['id']}/autoplay/", {"on": False})
    assert status == 200 and back["seats"][back["you"]]["autoplay"] is None
    assert Event.objects.filter(match_id=view["id"], data__type="autoplay_off",
                                data__reason="asked").exists()


def test_autoplay_is_only_for_people_at_the_table():
    _, _, (view, _) = two_people()
    status, data = new_player().post(f"/matches/{view['id']}/autoplay/", {"on": True})
    assert status == 404
    status, data = new_player().post(f"/matches/{view['id']}/autoplay/", {"on": "yes"})
    assert status == 400 and data["error"]["code"] == "invalid_input"


def test_a_lost_bot_turn_is_due_in_the_row_and_the_sweep_plays_it(monkeypatch):
    lost = []
    monkeypatch.setattr(hooks, "announce_server_turn", lambda *turn, **_: lost.append(turn))
    player = new_player()
    view = create(player, "gandengyan", {"starting_score": 50}, bot_seats(3))
    while view["your_turn"]:
        status, view = player.post(f"/matches/{view['id']}/act/",
                                   {"expected_version": view["version"],
                                    "action": choose(view, random.Random(2))})
    assert lost and not view["your_turn"]  # the bots' turn was announced, and the news lost
    match = Match.objects.get(pk=view["id"])
    assert match.due_at > timezone.now()  # not lost yet: its task may still come
    assert recover() == 0
    Match.objects.filter(pk=match.pk).update(due_at=timezone.now())
    monkeypatch.undo()
    counted_seeds(monkeypatch, "clocks-sweep")
    assert recover() == 1  # the sweep queues it again: in-process, played at once
    assert Match.objects.get(pk=match.pk).version > match.version
    assert recover() == 0  # claimed: nothing due again


def test_a_broker_that_does_not_answer_loses_no_turn_and_fails_no_act(monkeypatch):
    monkeypatch.setitem(bots.tasks.current_app.conf, "task_always_eager", False)

    def broken(*args, **kwargs):
        raise BrokerError("connection refused")

    monkeypatch.setattr(bots.tasks.bot_act, "apply_async", broken)
    player = new_player()
    view = create(player, "gandengyan", {}, bot_seats(3))
    while view["your_turn"]:
        status, view = player.post(f"/matches/{view['id']}/act/",
                                   {"expected_version": view["version"],
                                    "action": choose(view, random.Random(3))})
        assert status in (200, 201), view
    match = Match.objects.get(pk=view["id"])
    assert match.to_act in match.bot_seats and match.due_at is not None


def test_a_database_that_does_not_answer_is_503_with_retry_after(monkeypatch):
    player = new_player()
    view = create(player, "gandengyan", {}, bot_seats(3))

    def away(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(sql, "match_row", away)
    for response in (player.get(f"/matches/{view['id']}/"),
                     player.post(f"/matches/{view['id']}/act/",
                                 {"expected_version": view["version"],
                                  "action": {"type": "pass"}})):
        status, data = response
        assert status == 503 and data["error"]["code"] == "unavailable"
        assert data["error"]["details"]["retry_after_seconds"] > 0
