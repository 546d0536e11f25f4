"""Shared by the bot integration tests: bot-only matches set up through the service, and the
checks that their logs and ledgers are whole."""

import time

from django.db import transaction

from bots.tasks import enqueue_bot_turn
from config.celery import app as celery_app
from games import services
from games.models import Match, Move, Seat
from scoring.models import ScoreEntry


def bot_only_match(owner, ruleset: str, options: dict, levels: list[str]) -> Match:
    """A match whose every seat is a bot. The service gives seat 0 to its creator; the bot takes
    it over before anything is committed, then the first bot turn is queued."""
    with transaction.atomic():
        seats = [{"type": "human"}] + [{"type": "bot", "level": lv} for lv in levels[1:]]
        match = services.match_create(owner=owner, ruleset=ruleset, options=options, seats=seats)
        Seat.objects.filter(match=match, index=0).update(kind=Seat.Kind.BOT,
                                                         bot_level=levels[0], user=None)
        Match.objects.filter(pk=match.pk).update(bot_seats=list(range(len(levels))))
        match.refresh_from_db()
        if match.to_act == 0:  # else the service has queued the turn already
            match_id, version = match.pk, match.version
            transaction.on_commit(lambda: enqueue_bot_turn(match_id, version))
    return match


def wait_until_finished(match: Match, timeout: float, sweep: bool = False) -> Match:
    """The match, finished; with `sweep`, the recovery sweep is sent every second, as beat sends
    it in production (the integration session runs no beat)."""
    deadline = time.monotonic() + timeout
    swept = 0.0
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        if sweep and time.monotonic() - swept >= 1:
            celery_app.send_task("bots.tasks.recover_turns")
            swept = time.monotonic()
        time.sleep(0.2)
    raise AssertionError(f"match {match.pk} still at version {match.version} after {timeout}s")


def assert_whole(match: Match) -> None:
    """Bots only; one bot move per version (no turn played twice); each round's ledger sums to
    zero; every round ended."""
    moves = Move.objects.filter(match=match)
    assert not moves.filter(actor=Move.Actor.HUMAN).exists()
    versions = list(moves.filter(actor=Move.Actor.BOT).values_list("version", flat=True))
    assert versions and len(versions) == len(set(versions))
    for rnd in match.rounds.all():
        assert rnd.is_over
        deltas = list(ScoreEntry.objects.filter(round=rnd).values_list("delta", flat=True))
        assert deltas and sum(deltas) == 0
