"""A bot's turn as a Celery task: idempotent, fair (the strategy sees only the bot's view and legal
actions) and submitted through the same service as a person's action."""

import logging
import os
import random
import threading
import time

from celery import current_app, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError

from bots.strategies import choose_action
from games.engine.registry import get_ruleset
from games.errors import StaleVersion
from games.models import Match, Move, Seat
from games.services import action_submit

_eager = threading.local()
logger = logging.getLogger(__name__)

# Test only: seconds a bot task sleeps just before / just after submitting its move, so the
# worker-kill test can SIGKILL a worker in the middle of a task. Never set them in production.
TEST_DELAY_BEFORE = "BOT_TEST_DELAY_BEFORE_SUBMIT"
TEST_DELAY_AFTER = "BOT_TEST_DELAY_AFTER_SUBMIT"


def _test_delay(variable: str, match_id: int, version: int) -> None:
    seconds = float(os.environ.get(variable) or 0)
    if seconds:
        logger.warning("bot turn %s@%s: %s, sleeping %s s", match_id, version, variable, seconds)
        time.sleep(seconds)


def enqueue_bot_turn(match_id: int, version: int) -> None:
    """Queue the bot turn awaited at `version`. Run eagerly (no broker), each bot's move would
    queue the next one from inside the previous: the outermost call drives the chain in a loop
    instead, so a long run of bot turns never nests."""
    if not current_app.conf.task_always_eager:
        bot_act.delay(match_id, version)
        return
    if getattr(_eager, "driving", False):
        _eager.pending = (match_id, version)
        return
    _eager.driving = True
    try:
        job = (match_id, version)
        while job is not None:
            _eager.pending = None
            bot_act.delay(*job)
            job = _eager.pending
    finally:
        _eager.driving = False
        _eager.pending = None


def play_bot_turn(match_id: int, version: int) -> bool:
    """Act for the bot whose turn is awaited at `version`; False when there is nothing to do (the
    match moved on, or the seat to act is not a bot), so a repeated delivery changes nothing."""
    match = Match.objects.select_related("current_round").filter(pk=match_id).first()
    if match is None or match.version != version or match.status != Match.Status.ACTIVE:
        return False
    seat = Seat.objects.filter(match=match, index=match.to_act, kind=Seat.Kind.BOT).first()
    if seat is None:
        return False
    engine = get_ruleset(match.ruleset)
    state = engine.from_json(match.snapshot)
    legal = engine.legal_actions(state, seat.index)
    view = engine.view(state, seat.index, legal)
    seed = f"{match.current_round.seed_hash}:{version}"
    try:
        action = choose_action(seat.bot_level, match.ruleset, view, legal, random.Random(seed))
    except SoftTimeLimitExceeded:
        # A search overran the task's soft limit: the heuristic answers at once instead.
        action = choose_action("normal", match.ruleset, view, legal, random.Random(seed))
    _test_delay(TEST_DELAY_BEFORE, match_id, version)
    try:
        action_submit(match_id=match_id, seat=seat.index, action=action,
                      expected_version=version, actor=Move.Actor.BOT)
    except StaleVersion:
        return False  # another delivery of this turn, or a person, got there first
    _test_delay(TEST_DELAY_AFTER, match_id, version)
    return True


# At least once (acked after it ran, re-queued if its worker dies), and idempotent: together, a
# bot move happens exactly once. Time limits come from the settings, below Redis's visibility
# timeout so a running task is never handed to a second worker.
@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.BOT_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.BOT_TASK_TIME_LIMIT,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
)
def bot_act(match_id: int, version: int) -> bool:
    return play_bot_turn(match_id, version)
