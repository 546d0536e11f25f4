"""The server's pace (issue 21): at a table with people, the server's moves (bots, 托管) come one
at a time, `server_pace_ms` apart and twice that after a trick is taken or a round ends or starts,
scheduled through the match row's due time and the task queue (a countdown), never a sleep. In
the embedded mode the read that finds a paced turn due plays it; a worker's task plays one turn
of a paced match, and a slice of an unpaced one, then queues the rest."""

from datetime import timedelta

import pytest
from celery import current_app
from django.utils import timezone

import bots.tasks
from games import hooks
from games.models import Event, Match, Table
from tests.matchplay import bots as bot_seats
from tests.matchplay import counted_seeds, create, new_player

pytestmark = pytest.mark.django_db(transaction=True)

PACE = 400
BREAKS = {"trick_won", "round_settled", "round_started"}


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "pace")


def announced(monkeypatch) -> list[tuple[int, int, float]]:
    """The server turns announced, as (match, version, delay), instead of played."""
    jobs = []
    monkeypatch.setattr(hooks, "announce_server_turn",
                        lambda match, version, delay=0.0: jobs.append((match, version, delay)))
    return jobs


def highcard(person, pace: int | None = PACE, players: int = 3, **options) -> dict:
    asked = {"players": players, "rounds": 2, **options}
    if pace is not None:
        asked["server_pace_ms"] = pace
    return create(person, "highcard", asked, bot_seats(players - 1))


def expected_wait(match: Match) -> float:
    """The pace after the match's last write: longer when it took a trick or ended or dealt a
    round."""
    types = set(Event.objects.filter(match=match, version=match.version)
                .values_list("data__type", flat=True))
    return match.server_pace_ms / 1000 * (2 if types & BREAKS else 1)


def waited(match: Match) -> float:
    """Seconds from the match's last write to its next server turn being due."""
    return (match.due_at - match.updated_at).total_seconds()


def test_the_pace_is_the_houses_unless_the_match_or_its_table_sets_one(settings):
    settings.SERVER_PACE_MS = 700
    person = new_player()
    assert highcard(person, pace=None)["server_pace_ms"] == 700
    assert highcard(person, pace=0)["server_pace_ms"] == 0
    Table.objects.create(slug="slow", name="Slow", ruleset="highcard", bot_levels=["random"],
                         options={"players": 2, "rounds": 1}, server_pace_ms=1500, bots_after=0)
    status, view = person.post("/matches/", {"table": "slow"})
    assert status == 201 and view["server_pace_ms"] == 1500
    status, tables = person.get("/tables/")
    assert [t["server_pace_ms"] for t in tables["results"]] == [1500]
    status, refused = person.post("/matches/", {"table": "slow",
                                                "options": {"server_pace_ms": 100}})
    assert status == 400 and refused["error"]["details"]["option"] == "server_pace_ms"
    Table.objects.filter(slug="slow").update(server_pace_ms=None)
    status, view = person.post("/matches/", {"table": "slow"})
    assert view["server_pace_ms"] == 700  # the house's


@pytest.mark.parametrize("asked", [-1, 5001, "700", True, 1.5, None])
def test_a_pace_out_of_bounds_is_refused(asked):
    status, data = new_player().post("/matches/", {"ruleset": "highcard",
                                                   "options": {"server_pace_ms": asked}})
    assert status == 400 and data["error"]["code"] == "invalid_option"
    assert data["error"]["details"]["option"] == "server_pace_ms"


class StoppedClock:
    """The server's clock (django.utils.timezone.now, read by every module that schedules or
    finds what is due), moved only by the test: whether a read finds a turn due then depends on
    the pace alone, never on how fast a loaded machine got from the write to the read."""

    def __init__(self, monkeypatch):
        self.now = timezone.now()
        monkeypatch.setattr(timezone, "now", lambda: self.now)


def test_embedded_each_server_move_is_due_after_its_pace_and_the_read_then_plays_one(
        monkeypatch):
    clock = StoppedClock(monkeypatch)
    person = new_player()
    view = highcard(person)
    match_id, server_moves, breaks = view["id"], 0, 0
    while view["status"] == "active":
        if view["your_turn"]:
            view = person.post(f"/matches/{match_id}/act/", {
                "expected_version": view["version"], "action": view["legal_actions"][0]})[1]
            continue
        match = Match.objects.get(pk=match_id)
        wait = expected_wait(match)
        breaks += wait > PACE / 1000
        assert waited(match) == pytest.approx(wait, abs=0.05)  # no grace: a read plays it
        clock.now = match.due_at - timedelta(milliseconds=1)
        assert person.get(f"/matches/{match_id}/")[1]["version"] == match.version  # not yet
        clock.now = match.due_at  # its time has come
        view = person.get(f"/matches/{match_id}/")[1]
        assert view["version"] == match.version + 1  # one server move, not the rest
        server_moves += 1
    assert view["status"] == "finished" and server_moves >= 6 and breaks >= 2


def test_with_workers_the_turn_is_queued_with_the_pace_as_countdown(monkeypatch, settings):
    settings.PACED_TURN_GRACE_SECONDS = settings.TURN_RECOVERY_SECONDS
    settings.BOT_TASK_SLICE_SECONDS = 600  # the pace alone stops a task after one move
    jobs = announced(monkeypatch)
    person = new_player()
    view = highcard(person)
    while view["your_turn"]:
        view = person.post(f"/matches/{view['id']}/act/", {
            "expected_version": view["version"], "action": view["legal_actions"][0]})[1]
    for _ in range(4):
        match = Match.objects.get(pk=view["id"])
        if match.to_act == 0:
            break
        assert jobs[-1] == (match.pk, match.version, pytest.approx(expected_wait(match)))
        # Due for the sweep only once its task had time to play it.
        assert waited(match) == pytest.approx(
            expected_wait(match) + settings.TURN_RECOVERY_SECONDS, abs=0.05)
        assert bots.tasks.play_server_turns(match.pk, match.version) == 1  # one move per task


def test_a_task_queues_the_turn_with_its_countdown(monkeypatch):
    queued = []
    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setattr(bots.tasks.coordination, "mark_queued", lambda *turn: True)
    monkeypatch.setattr(bots.tasks.bot_act, "apply_async",
                        lambda args, countdown=None: queued.append((args, countdown)))
    bots.tasks.enqueue_bot_turn(7, 3, delay=0.8)
    bots.tasks.enqueue_bot_turn(7, 4)
    assert queued == [((7, 3), 0.8), ((7, 4), None)]


@pytest.mark.parametrize(("slice_seconds", "played"), [(0, 1), (600, 2)])
def test_an_unpaced_match_gets_a_slice_of_a_task_then_queues_the_rest(
        monkeypatch, settings, slice_seconds, played):
    """A task stops starting turns once its slice is over (at least one turn): a busy match
    never holds a worker that other matches' turns wait for."""
    jobs = announced(monkeypatch)
    settings.BOT_TASK_SLICE_SECONDS = slice_seconds
    person = new_player()
    view = highcard(person, pace=0, players=4)
    status, view = person.post(f"/matches/{view['id']}/autoplay/", {"on": True})
    match_id, version, delay = jobs[-1]
    assert delay == 0
    assert bots.tasks.play_server_turns(match_id, version, turns=2) == played
    assert jobs[-1][1] == version + played  # the next turn is queued behind the others'
