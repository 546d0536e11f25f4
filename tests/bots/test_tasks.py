"""The bot task's reliability settings and fallbacks, and people playing `hard` bots through the
API (eager mode)."""

import itertools
import os
import random
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient

import bots.tasks
from bots import strategies
from bots.strategies.gandengyan.belief import moments
from bots.strategies.search import Budget
from games import selectors, sql
from games.engine.rulesets.five_ten_k.ruleset import FiveTenK
from games.engine.rulesets.gandengyan import RULESET as RULES
from games.engine.rulesets.gandengyan.state import LOG_TAIL, LOGGED
from games.management.commands.verify_matches import problems
from games.models import Match, Move
from tests.matchplay import Client, client_sender, create, play_through, poller, sign_in
from tests.matchplay import bots as bot_seats

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def player() -> Client:
    client = Client(client_sender(APIClient()))
    sign_in(client)
    return client


def first_bot_turn(player, queued, level: str) -> tuple[int, int]:
    view = create(player, "510k", {"rounds": 1}, bot_seats(3, level))
    while not queued:  # seat 0 cuts, and may hold the face-up card and bid first
        view = player.post(f"/matches/{view['id']}/act/",
                           {"expected_version": view["version"],
                            "action": view["legal_actions"][0]})[1]
    return queued[-1]


def test_time_limits_come_from_the_settings_below_the_visibility_timeout():
    task = bots.tasks.bot_act
    assert task.soft_time_limit == settings.BOT_TASK_SOFT_TIME_LIMIT
    assert task.time_limit == settings.BOT_TASK_TIME_LIMIT
    assert task.time_limit < settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert task.acks_late and task.reject_on_worker_lost and task.max_retries


@pytest.mark.parametrize(
    "env",
    [{"BOT_TASK_TIME_LIMIT": "4000", "CELERY_VISIBILITY_TIMEOUT": "3600"},
     {"BOT_TASK_SOFT_TIME_LIMIT": "40"},  # above the hard limit
     {"CELERY_VISIBILITY_TIMEOUT": "10"}],
)
def test_limits_out_of_order_refuse_to_start(env):
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("BOT_", "CELERY_", "DATABASE_URL"))}
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"], cwd=ROOT,
        env={**clean, **env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode != 0 and "BOT_TASK_TIME_LIMIT" in done.stderr


@pytest.mark.django_db(transaction=True)
def test_a_search_cut_short_by_the_soft_limit_falls_back_to_normal(player, queued, monkeypatch):
    def overrun(level, *args):
        if level == "hard":
            raise SoftTimeLimitExceeded()
        return strategies.choose_action(level, *args)

    monkeypatch.setattr(bots.tasks, "choose_action", overrun)
    match_id, version = first_bot_turn(player, queued, "hard")
    assert bots.tasks.play_server_turns(match_id, version, turns=1) >= 1
    assert Move.objects.filter(match_id=match_id, actor="bot").count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("waited", "level", "reason"), [(0, "hard", ""), (5, "normal", "late")])
def test_a_hard_turn_queued_past_its_budget_is_played_by_normal_and_says_so(
        player, queued, monkeypatch, settings, waited, level, reason):
    settings.BOT_HARD_START_SECONDS = 2
    levels = []
    monkeypatch.setattr(bots.tasks, "choose_action",
                        lambda chosen, *args: levels.append(chosen) or
                        strategies.choose_action("normal", *args))
    match_id, version = first_bot_turn(player, queued, "hard")
    Move.objects.filter(match_id=match_id, actor="human").update(
        created_at=timezone.now() - timedelta(seconds=waited))
    assert bots.tasks.play_server_turns(match_id, version, turns=1) == 1
    assert levels == [level]
    move = Move.objects.get(match_id=match_id, actor="bot")
    assert move.reason == reason


@pytest.mark.django_db(transaction=True)
def test_once_the_bots_replies_overrun_the_budget_the_rest_are_played_by_normal(
        player, queued, monkeypatch, settings):
    settings.BOT_HARD_START_SECONDS = 0.3

    def slow(chosen, *args):
        if chosen == "hard":
            time.sleep(0.4)  # the first search takes the person's wait past the budget
        return strategies.choose_action("normal", *args)

    monkeypatch.setattr(bots.tasks, "choose_action", slow)
    view = create(player, "gandengyan", {"starting_score": 5000}, bot_seats(3, "hard"))
    while not queued:
        view = play_through(player, view, random.Random(2), acts=1)
    match_id, version = queued[-1]
    played = 0
    while played < 3 and bots.tasks.play_server_turns(*queued[-1]):  # a task per turn
        played += 1
    reasons = list(Move.objects.filter(match_id=match_id, actor="bot", version__gt=version)
                   .order_by("version").values_list("reason", flat=True))
    assert reasons[0] == "" and set(reasons[1:]) == {"late"}


@pytest.mark.django_db(transaction=True)
def test_a_task_out_of_time_plays_its_turn_and_queues_the_next(player, queued):
    match_id, version = first_bot_turn(player, queued, "random")
    assert bots.tasks.play_server_turns(match_id, version, seconds=0) == 1
    after = Match.objects.get(pk=match_id).version
    assert after > version and queued[-1] == (match_id, after)


def counted(monkeypatch, module, name: str) -> list:
    """The calls of module.name from now on (still made)."""
    calls, real = [], getattr(module, name)
    monkeypatch.setattr(module, name, lambda *a, **k: calls.append(a) or real(*a, **k))
    return calls


@pytest.mark.django_db(transaction=True)
def test_turns_in_a_row_are_one_write_and_a_version_each(player, queued, monkeypatch):
    view = create(player, "gandengyan", {"starting_score": 5000}, bot_seats(3, "normal"))
    while not queued:
        view = play_through(player, view, random.Random(5), acts=1)
    match_id, version = queued[-1]
    writes = counted(monkeypatch, sql, "write_if_version") + counted(monkeypatch, sql, "write")
    played = bots.tasks.play_server_turns(match_id, version)
    assert played >= 2
    chosen = (Move.objects.filter(match_id=match_id, version__gt=version)
              .exclude(reason=Move.Reason.FORCED).order_by("id").values_list("version", flat=True))
    assert list(chosen) == list(range(version + 1, version + 1 + played))
    assert len(writes) < played
    assert problems(match_id) == []  # the snapshot is what the log replays to


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("tick", [0.2, 0.35, 0.5, 0.8])
def test_a_task_that_stops_between_writes_queues_the_next_turn(player, queued, monkeypatch,
                                                              tick):
    # Each `hard` turn is a write of its own; the task's clock moves `tick` per reading, so its
    # slice runs out at one point or another of the chain.
    monkeypatch.setattr(bots.tasks, "choose_action",
                        lambda level, *args: strategies.choose_action("normal", *args))
    clock = itertools.count(step=tick)
    monkeypatch.setattr(bots.tasks, "time", SimpleNamespace(
        monotonic=lambda: next(clock), perf_counter=time.perf_counter, sleep=time.sleep))
    view = create(player, "gandengyan", {"starting_score": 5000}, bot_seats(3, "hard"))
    while not queued:
        view = play_through(player, view, random.Random(6), acts=1)
    for _ in range(4):
        match_id, version = queued[-1]
        assert bots.tasks.play_server_turns(match_id, version, seconds=1) >= 1
        match = Match.objects.get(pk=match_id)
        if match.server_turn() is None:
            break
        assert queued[-1] == (match_id, match.version)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("variable", [bots.tasks.TEST_DELAY_BEFORE, bots.tasks.TEST_DELAY_AFTER])
def test_the_test_only_delays_sleep_where_they_say(player, queued, monkeypatch, variable):
    slept = []

    def sleep(seconds):
        slept.append((seconds, Move.objects.filter(actor="bot").count()))

    monkeypatch.setattr(bots.tasks.time, "sleep", sleep)
    monkeypatch.setenv(variable, "2.5")
    match_id, version = first_bot_turn(player, queued, "random")
    bots.tasks.play_server_turns(match_id, version, turns=1)
    committed = 0 if variable == bots.tasks.TEST_DELAY_BEFORE else 1
    assert slept == [(2.5, committed)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("ruleset", "options"),
                         [("510k", {"rounds": 1}), ("gandengyan", {"starting_score": 10})])
def test_a_person_plays_hard_bots_through_the_api(player, monkeypatch, settings, ruleset,
                                                  options):
    # A one-sample search: the same code path as the default time budget, in test time.
    monkeypatch.setattr(strategies, "DEFAULT_BUDGET", Budget(ms=None, samples=1))
    # One server turn per request, as on a machine too busy for more in the request's budget:
    # the person reads on for the bots' replies, as a client does, however fast they come.
    settings.EMBEDDED_TURN_SECONDS = 0
    view = create(player, ruleset, options, bot_seats(3, "hard"))
    view = play_through(player, view, random.Random(4), wait=poller(player))
    assert view["status"] == "finished"
    match = Match.objects.get(pk=view["id"])
    assert Move.objects.filter(match=match, actor="bot").exists()


@pytest.mark.django_db(transaction=True)
def test_a_bot_turn_reads_and_decodes_the_match_once(player, queued, monkeypatch):
    match_id, version = first_bot_turn(player, queued, "random")
    reads, decoded = [], []
    match_row = sql.match_row
    from_json = FiveTenK.from_json
    monkeypatch.setattr(sql, "match_row", lambda *a, **k: reads.append(a) or match_row(*a, **k))
    monkeypatch.setattr(FiveTenK, "from_json",
                        lambda self, data: decoded.append(1) or from_json(self, data))
    assert bots.tasks.play_server_turns(match_id, version, turns=1) == 1
    assert len(reads) == 1 and len(decoded) == 1  # a turn that ends no round


@pytest.mark.django_db(transaction=True)
def test_a_bot_reads_the_whole_round_where_the_snapshot_keeps_its_latest_events(player):
    view = create(player, "gandengyan", {"starting_score": 5000}, bot_seats(3, "normal"))
    rng = random.Random(3)
    while True:  # until the round's log outgrows the snapshot's tail
        view = play_through(player, view, rng, acts=1)
        match = Match.objects.get(pk=view["id"])
        state = RULES.from_json(match.snapshot)
        heard = selectors.round_events(match.pk, match.round_number)
        logged = [e for e in heard if e["type"] in LOGGED]
        if len(logged) > LOG_TAIL and not RULES.round_over(state):
            break
    assert len(state.round.log) == LOG_TAIL
    whole = bots.tasks._heard(RULES, state, match.pk, match.round_number).round.log
    assert len(whole) == len(logged) + 1  # and the deal's draw
    assert whole[-LOG_TAIL:] == state.round.log
    # The counts the whole log replays to are the table's: the bot's belief can use it.
    seen = strategies.observe("gandengyan", RULES.remember(state, heard, whole=True),
                              match.to_act)
    assert moments(seen) is not None
