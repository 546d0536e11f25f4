"""Bot turns: idempotent, deterministic, fair (the strategy sees only its seat's view), submitted
through the one write path, and driven in a loop when eager."""

import contextlib
import inspect
import random

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from rest_framework.test import APIClient

import bots.tasks
from bots import strategies
from bots.strategies.random_bot import RandomBot
from games.engine.actions import Play
from games.engine.registry import get_ruleset
from games.models import BOT_LEVELS, Match, Move
from tests.matchplay import Client, client_sender, create, new_player, record_bot_turns, sign_in
from tests.matchplay import bots as bot_seats

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def queued(monkeypatch) -> list[tuple[int, int]]:
    return record_bot_turns(monkeypatch, "bots")


@pytest.fixture
def player() -> Client:
    client = Client(client_sender(APIClient()))
    sign_in(client)
    return client


def bot_turn_match(player, queued, ruleset="510k", options=None) -> tuple[int, int]:
    """A match whose seat to act is a bot (seat 0 cuts, then the bots bid or play)."""
    view = create(player, ruleset, options or {"rounds": 1}, bot_seats(3))
    while not queued:
        view = player.post(f"/matches/{view['id']}/act/",
                           {"expected_version": view["version"],
                            "action": view["legal_actions"][0]})[1]
    return queued[-1]


def test_a_turn_delivered_twice_moves_once(player, queued):
    match_id, version = bot_turn_match(player, queued)
    assert bots.tasks.play_server_turns(match_id, version, turns=1) >= 1
    moves = Move.objects.filter(match_id=match_id, actor="bot").count()
    assert bots.tasks.play_server_turns(match_id, version, turns=1) == 0
    assert Move.objects.filter(match_id=match_id, actor="bot").count() == moves == 1


def test_nothing_to_do_on_a_persons_turn_or_an_unknown_match(player, queued):
    view = create(player, "510k", {"rounds": 1}, bot_seats(3))
    assert view["to_act"] == 0 and not queued
    assert bots.tasks.play_server_turns(view["id"], view["version"]) == 0
    assert bots.tasks.play_server_turns(999999, 1) == 0
    assert not Move.objects.exists()


class Undone(Exception):
    pass


def test_the_same_turn_played_again_gives_the_same_bot_action(player, queued):
    match_id, version = bot_turn_match(player, queued)
    actions = []
    for _ in range(2):  # the turn played, then undone: a second delivery finds it as it was
        with contextlib.suppress(Undone), transaction.atomic():
            assert bots.tasks.play_server_turns(match_id, version, turns=1) == 1
            actions.append(Move.objects.filter(match_id=match_id, actor="bot").get().action)
            raise Undone
    assert actions[0] == actions[1]


def test_the_strategy_gets_only_its_seats_observation(player, queued, monkeypatch):
    seen = []

    def spy(level, ruleset, observation, rng):
        seen.append(observation)
        return strategies.choose_action(level, ruleset, observation, rng)

    monkeypatch.setattr(bots.tasks, "choose_action", spy)
    match_id, version = bot_turn_match(player, queued)
    match = Match.objects.get(pk=match_id)
    engine = get_ruleset(match.ruleset)
    state = engine.from_json(match.snapshot)
    bots.tasks.play_server_turns(match_id, version, turns=1)
    assert seen == [strategies.observe(match.ruleset, state, match.to_act)]
    assert list(seen[0].legal) == engine.legal_actions(state, match.to_act)


def test_eager_bot_turns_run_in_a_loop_not_nested(monkeypatch, settings):
    """Each eager bot move queues the next from inside the previous one; the stack must not
    grow with the number of moves."""
    settings.EMBEDDED_TURN_SECONDS = 600
    depths = []

    def fake_play(match_id, version, seconds):
        depths.append(len(inspect.stack(0)))
        if version < 300:
            bots.tasks.enqueue_bot_turn(match_id, version + 1)

    monkeypatch.setattr(bots.tasks, "play_server_turns", fake_play)
    bots.tasks.enqueue_bot_turn(1, 1)
    assert len(depths) == 300 and max(depths) == min(depths)


@pytest.mark.django_db(transaction=True)
def test_eager_server_turns_stop_on_time_and_the_next_read_plays_on(settings):
    """托管 at a table of bots: the request that asked for it plays for EMBEDDED_TURN_SECONDS,
    then leaves the next turn due at once; each read plays on, until the match is over."""
    settings.EMBEDDED_TURN_SECONDS = 0  # one turn per request
    person = new_player()
    view = create(person, "510k", {"rounds": 1}, bot_seats(3, "random"))
    status, view = person.post(f"/matches/{view['id']}/autoplay/", {"on": True})
    assert status == 200 and view["status"] == "active"
    match = Match.objects.get(pk=view["id"])
    assert match.due_at is not None and match.due_at <= timezone.now()
    reads = 0
    while view["status"] == "active" and reads < 1000:
        view, reads = person.get(f"/matches/{view['id']}/")[1], reads + 1
    assert view["status"] == "finished" and reads > 1


def test_task_options_for_at_least_once_delivery():
    task = bots.tasks.bot_act
    assert task.acks_late and task.reject_on_worker_lost
    assert task.soft_time_limit < task.time_limit
    assert 2 * task.time_limit <= settings.CELERY_BROKER_TRANSPORT_OPTIONS[
        "visibility_timeout"] <= 10 * task.time_limit
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1 and settings.CELERY_TASK_IGNORE_RESULT


@pytest.mark.parametrize("ruleset", ["gandengyan", "510k"])
def test_every_seat_level_has_a_strategy_of_its_own(ruleset):
    levels = strategies.strategies(ruleset)
    assert set(levels) == {*BOT_LEVELS, "greedy"}  # greedy: tests and simulate, never a seat
    assert len({id(levels[name]) for name in BOT_LEVELS}) == len(BOT_LEVELS)  # none falls back


@pytest.mark.parametrize("players", [4, 2])
def test_random_bot_plays_only_accepted_actions_with_valid_extras(players):
    engine = get_ruleset("510k")
    rng = random.Random(players)
    with_extras = 0
    for game in range(3):
        state = engine.new_match(engine.parse_options({"players": players, "rounds": 1}),
                                 [False] * players)
        state = engine.start_round(state, f"random-bot-{game}")
        while not engine.round_over(state):
            seat = engine.to_act(state)
            legal = engine.legal_actions(state, seat)
            action = RandomBot(engine)(strategies.observe("510k", state, seat), rng)
            listed = {a.cards for a in legal if isinstance(a, Play)}
            if isinstance(action, Play) and action.cards not in listed:
                with_extras += 1
            state, _ = engine.apply(state, seat, action)
    assert with_extras > 0
