"""Clocks apart from bots: the sweep and timeouts go to the `clock` queue, a timeout is queued to
run when its clock runs out and plays that one turn, and a server turn is not queued twice while
its task waits (workers' mode, with the broker's calls caught)."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

import bots.tasks
from config.celery import app
from games import coordination, services
from games.models import Match, Move
from tests.matchplay import bots as bot_seats
from tests.matchplay import create, new_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker(monkeypatch) -> dict[str, list]:
    """Workers' mode, with what would be sent to the broker kept here, and the queued marks of
    Redis in a set."""
    sent = {"bots": [], "clock": []}
    marks = set()
    monkeypatch.setitem(bots.tasks.current_app.conf, "task_always_eager", False)
    monkeypatch.setattr(bots.tasks.bot_act, "apply_async",
                        lambda args, countdown=None: sent["bots"].append(tuple(args)))
    monkeypatch.setattr(bots.tasks.clock_act, "apply_async",
                        lambda args, eta: sent["clock"].append((*args[:2], eta)))

    def mark(match_id, version):
        if (match_id, version) in marks:
            return False
        marks.add((match_id, version))
        return True

    monkeypatch.setattr(coordination, "mark_queued", mark)
    monkeypatch.setattr(coordination, "clear_queued", lambda *job: marks.discard(job))
    monkeypatch.setattr(coordination, "beat", lambda *args, **kwargs: None)
    return sent


def person_and_bots(queued, turn_seconds: int = 10) -> Match:
    """A 510k match, a person against three bots, at the person's turn with a running clock."""
    player = new_player()
    view = create(player, "510k", {"rounds": 1, "turn_seconds": turn_seconds},
                  bot_seats(3))
    while not view["your_turn"]:  # the bots cut and bid first: played here, as tasks would
        match_id, version = queued.pop()
        bots.tasks.play_server_turns(match_id, version)
        view = player.get(f"/matches/{view['id']}/")[1]
    match = Match.objects.get(pk=view["id"])
    assert match.deadline_at is not None and match.due_at == match.deadline_at
    return match


def bots_turn(queued) -> Match:
    player = new_player()
    view = create(player, "510k", {"rounds": 1}, bot_seats(3))
    while not queued:
        view = player.post(f"/matches/{view['id']}/act/",
                           {"expected_version": view["version"],
                            "action": view["legal_actions"][0]})[1]
    return Match.objects.get(pk=view["id"])


def test_the_sweep_and_timeouts_have_their_own_queue_and_bots_the_default():
    route = app.amqp.router.route
    assert route({}, "bots.tasks.recover_turns")["queue"].name == settings.CLOCK_QUEUE
    assert route({}, "bots.tasks.clock_act")["queue"].name == settings.CLOCK_QUEUE
    assert route({}, "bots.tasks.bot_act")["queue"].name == settings.BOTS_QUEUE
    # Each queue is bound to its own routing key: a message for one never lands in the other.
    keys = {name: queue.routing_key for name, queue in app.amqp.queues.items()}
    assert keys == {settings.BOTS_QUEUE: "bots", settings.CLOCK_QUEUE: "clock"}


def test_a_clock_is_claimed_before_it_runs_out_and_only_once(queued):
    match = person_and_bots(queued)
    lease = settings.TURN_RECOVERY_SECONDS
    assert services.clocks_claim(ahead=5, lease=lease, limit=10) == []  # 10 s left
    claimed = services.clocks_claim(ahead=11, lease=lease, limit=10)
    assert claimed == [(match.pk, match.version, match.deadline_at)]
    after = Match.objects.get(pk=match.pk)
    assert after.due_at == match.deadline_at + timedelta(seconds=lease)  # lost: swept then
    assert services.clocks_claim(ahead=11, lease=lease, limit=10) == []
    assert services.due_claim(lease=lease, limit=10) == []  # not due before its deadline


def test_a_bots_turn_is_no_clock(queued):
    match = bots_turn(queued)
    assert match.due_at is not None and match.deadline_at is None
    assert services.clocks_claim(ahead=3600, lease=5, limit=10) == []


def test_the_sweep_queues_a_timeout_for_when_its_clock_runs_out(queued, broker):
    match = person_and_bots(queued, turn_seconds=10)
    soon = timezone.now() + timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline_at=soon, due_at=soon)
    assert bots.tasks.recover() == 1
    assert broker == {"bots": [], "clock": [(match.pk, match.version, soon)]}
    assert bots.tasks.recover() == 0


def test_the_timeout_plays_that_one_turn_and_queues_the_bots_after_it(queued):
    match = person_and_bots(queued, turn_seconds=10)
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline_at=past, due_at=past)
    queued.clear()
    assert bots.tasks.clock_act(match.pk, match.version, past.timestamp()) == 1
    timeout = Move.objects.filter(match=match, version__gt=match.version).earliest("version")
    assert (timeout.actor, timeout.reason) == ("auto", "timeout")
    after = Match.objects.get(pk=match.pk)
    assert queued == [(match.pk, after.version)]  # the bots' turns: to the bots queue
    assert bots.tasks.clock_act(match.pk, match.version, past.timestamp()) == 0  # again: no-op


def test_a_timeout_queued_a_little_early_waits_for_its_clock(queued, monkeypatch):
    match = person_and_bots(queued, turn_seconds=10)
    slept = []
    monkeypatch.setattr(bots.tasks.time, "sleep", slept.append)
    soon = timezone.now() + timedelta(seconds=0.5)
    bots.tasks.clock_act(match.pk, match.version, soon.timestamp())
    assert len(slept) == 1 and 0 < slept[0] <= 0.5


def test_a_server_turn_waiting_in_the_queue_is_not_queued_again(queued, broker):
    match = bots_turn(queued)
    turn = (match.pk, match.version)
    bots.tasks.enqueue_bot_turn(*turn)
    bots.tasks.enqueue_bot_turn(*turn)  # the sweep found it due while its task waits
    assert broker["bots"] == [turn]
    coordination.clear_queued(*turn)  # its task started (bot_act clears the mark)
    bots.tasks.enqueue_bot_turn(*turn)
    assert broker["bots"] == [turn, turn]


def test_a_task_clears_its_queued_mark_when_it_starts(queued, monkeypatch):
    match = bots_turn(queued)
    cleared = []
    monkeypatch.setattr(coordination, "clear_queued", lambda *job: cleared.append(job))
    bots.tasks.bot_act(match.pk, match.version)
    assert cleared == [(match.pk, match.version)]


def test_a_task_for_a_turn_already_played_stops_before_decoding_the_match(queued, monkeypatch):
    match = bots_turn(queued)
    bots.tasks.play_server_turns(match.pk, match.version, turns=1)
    decoded = []
    monkeypatch.setattr(bots.tasks, "get_ruleset", lambda name: decoded.append(name))
    assert bots.tasks.bot_act(match.pk, match.version) == 0  # a duplicate: played already
    assert decoded == []
