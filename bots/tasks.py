"""The turns the server plays, as Celery tasks: bots' turns, seats in 托管 and the turn of a person
whose clock ran out. Idempotent (a task re-reads the match and does nothing if it moved on), fair
(a strategy gets only its seat's observation: what that seat may know, and its legal actions)
and submitted through the same service as a person's action. The recovery sweep, run by beat,
plays or queues again whatever is due in the match rows (Match.due_at): a turn never depends on a
message that can be lost."""

import logging
import os
import threading
import time
from datetime import timedelta

from celery import current_app, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError
from django.utils import timezone
from kombu.exceptions import KombuError

from bots.rng import turn_rng
from bots.strategies import choose_action, observe
from games import coordination, metrics, selectors, services, sql
from games.engine.registry import get_ruleset
from games.errors import StaleVersion
from games.models import Match, Move

_eager = threading.local()
logger = logging.getLogger(__name__)

# Consecutive server turns one task plays (bots in a row, seats in 托管) at most, within its
# slice of time (BOT_TASK_SLICE_SECONDS), before it queues the next: one read, and one write for
# the turns up to a round's end or a `hard` search, instead of a queue round trip each. A paced
# match gets one turn per task.
TURNS_PER_TASK = 40
SWEEP_BATCH = 500

# Test only: seconds a bot task sleeps just before / just after submitting its move, so the
# worker-kill test can SIGKILL a worker in the middle of a task. Never set them in production.
TEST_DELAY_BEFORE = "BOT_TEST_DELAY_BEFORE_SUBMIT"
TEST_DELAY_AFTER = "BOT_TEST_DELAY_AFTER_SUBMIT"


def _test_delay(variable: str, match_id: int, version: int) -> None:
    seconds = float(os.environ.get(variable) or 0)
    if seconds:
        logger.warning("turn %s@%s: %s, sleeping %s s", match_id, version, variable, seconds)
        time.sleep(seconds)


def enqueue_bot_turn(match_id: int, version: int, *, delay: float = 0.0) -> None:
    """Queue the server turn awaited at `version`, to be played in `delay` seconds (the match's
    pace); never raises for the broker (the turn is due in the match row, where the sweep finds
    it). Run eagerly (no broker), a paced turn is left to the match's next read at its time (it
    is due then in the match row), and a turn played inside another's would nest: the outermost
    call drives the chain in a loop instead."""
    if not current_app.conf.task_always_eager:
        if not coordination.mark_queued(match_id, version):
            return  # its task waits in the queue already
        try:
            bot_act.apply_async((match_id, version), countdown=delay or None)
        except (KombuError, OSError) as error:
            logger.warning("turn %s@%s not queued (%s): the sweep will play it", match_id,
                           version, error)
        return
    if delay:
        return
    if getattr(_eager, "driving", False):
        _eager.pending = (match_id, version)
        return
    _eager.driving = True
    started = time.monotonic()
    try:
        job = (match_id, version)
        while job is not None:  # at least one turn per request, so that reads make progress
            _eager.pending = None
            left = settings.EMBEDDED_TURN_SECONDS - (time.monotonic() - started)
            play_server_turns(*job, seconds=max(0.0, left))
            job = _eager.pending
            if job is not None and time.monotonic() - started >= settings.EMBEDDED_TURN_SECONDS:
                _due_now(*job)
                break
    finally:
        _eager.driving = False
        _eager.pending = None


def _due_now(match_id: int, version: int) -> None:
    """The request ran out of time for server turns: the next read of the match plays on."""
    Match.objects.filter(pk=match_id, version=version, due_at__isnull=False).update(
        due_at=timezone.now())


def _late(since) -> bool:
    """More time has gone since `since` than a `hard` search may take."""
    return (timezone.now() - since).total_seconds() > settings.BOT_HARD_START_SECONDS


def _waiting_since(match: Match):
    """Since when the server's turns now due have been awaited: in a paced match, this turn's
    own time (after the pace the table chose); otherwise since the last person's act, whatever
    tasks the turns since then took (a task plays a slice of them), or since the last write
    where no person has acted."""
    if match.server_pace_ms:
        return match.updated_at + timedelta(milliseconds=match.server_pace_ms)
    acted = (Move.objects.filter(match_id=match.pk, actor=Move.Actor.HUMAN)
             .order_by("-id").values_list("created_at", flat=True).first())
    return acted or match.updated_at


def _heard(engine, state, match_id: int, round_number: int):
    """`state` as a bot reads it: with all of the round's public events, where the ruleset keeps
    some (the snapshot holds only the latest few)."""
    if not engine.remembers:
        return state
    return engine.remember(state, selectors.round_events(match_id, round_number), whole=True)


def play_server_turns(match_id: int, version: int, turns: int = TURNS_PER_TASK,
                      seconds: float | None = None) -> int:
    """Play the server's turns from `version` on, as long as the server is to act (at most
    `turns`, and no new one after `seconds`: a task's slice, so that one busy match never holds a
    worker the other matches' turns wait for); in a paced match, one. How many were played; 0
    when there is nothing to do (the match moved on, a person is to act), so a repeated delivery
    changes nothing. The turns in a row are written together (services.turns_submit), up to a
    round's end or a `hard` turn; the last write queues the next server turn (after the pace)."""
    row = sql.match_row(match_id)
    if row is None or row.match.version != version or (
            who := row.match.server_turn(timezone.now())) is None:
        return 0
    metrics.BOT_LAG.observe(_waited(row.match, who))
    chain = _Chain(match_id, turns, settings.BOT_TASK_SLICE_SECONDS if seconds is None
                   else seconds)
    # The snapshot is decoded once; after a write, the match as the task wrote it is the next
    # write's (a concurrent writer makes that write's version check fail).
    state = get_ruleset(row.match.ruleset).from_json(row.match.snapshot)
    while True:
        chain.begin(row, version)
        try:
            done = services.turns_submit(match_id=match_id, expected_version=version, row=row,
                                         state=state, choose=chain.choose,
                                         announce=chain.writing)
        except StaleVersion:
            break  # another delivery of this turn, or a person, got there first
        if done is None:
            break
        _test_delay(TEST_DELAY_AFTER, match_id, version)
        chain.played += chain.chosen
        if chain.stopping or not done.server_to_act:
            break
        version, state = done.read.match.version, done.state
        row = sql.MatchRow(done.read.match, done.read.round_number, done.read.seed_hash,
                           done.read.seats, None)
    return chain.played


class _Chain:
    """One task's server turns: how each is chosen, and when the task stops."""

    def __init__(self, match_id: int, turns: int, seconds: float):
        self.match_id, self.turns = match_id, turns
        self.ends = time.monotonic() + seconds
        self.played = 0  # turns written
        self.chosen = 0  # turns chosen for the write under way
        self.stopping = False  # the write under way is the task's last
        self.since = None  # since when the turns have been awaited (for `hard` only)
        self.row: sql.MatchRow | None = None  # the match as the write under way found it
        self.version = 0  # ... and its version then

    def begin(self, row: sql.MatchRow, version: int) -> None:
        """A new write, from `row` at `version`."""
        self.row, self.version, self.chosen = row, version, 0

    def over(self) -> bool:
        """The task's share is used up: at least one turn, and at most one in a paced match."""
        count = self.played + self.chosen
        return count >= self.turns or count > 0 and (
            time.monotonic() >= self.ends or self.row.match.server_pace_ms > 0)

    def writing(self) -> bool:
        """Asked just before a write: whether it is the task's last (it then queues the next
        server turn)."""
        _test_delay(TEST_DELAY_BEFORE, self.match_id, self.version)
        self.stopping = self.over()
        return self.stopping

    def choose(self, state, who, version: int):
        """The action for `who`'s turn at `state`, and the reason its move gives; None: not in
        this write. A write's first turn is always played: the write before chose to play on."""
        if self.chosen and self.over():
            return None
        match, reason = self.row.match, who.reason
        level = who.level(self.row.seats)
        if level == "hard":
            self.since = self.since or _waiting_since(match)
            if _late(self.since):
                level, reason = "normal", Move.Reason.LATE
            elif self.chosen:
                return None  # its belief reads the round's whole log, as written
        heard = state
        if level == "hard":  # only the search reads the round's whole log (its belief)
            heard = _heard(get_ruleset(match.ruleset), state, self.match_id, match.round_number)
        seen = observe(match.ruleset, heard, who.seat)
        rng = turn_rng(self.match_id, self.row.seed_hash, version)
        thinking = time.perf_counter()
        try:
            action = choose_action(level, match.ruleset, seen, rng)
        except SoftTimeLimitExceeded:
            # A search overran the task's soft limit: the heuristic answers at once instead.
            action = choose_action("normal", match.ruleset, seen, rng)
        metrics.BOT_DECISION.labels(level).observe(time.perf_counter() - thinking)
        self.chosen += 1
        return action, reason


def _waited(match: Match, who) -> float:
    """Seconds since the server's turn was queued: a clock's deadline, else its due time less
    the grace Progress gives the queued task (see Match.due_at). Turns played in a row by one
    task wait for no queue and are not counted."""
    if match.due_at is None:
        return 0.0
    became_due = match.due_at
    if who.reason != Move.Reason.TIMEOUT:
        became_due -= timedelta(seconds=settings.TURN_RECOVERY_SECONDS)
    return max(0.0, (timezone.now() - became_due).total_seconds())


# At least once (acked after it ran, delivered again if its worker dies), and idempotent:
# together, each turn is played exactly once. Time limits come from the settings, below Redis's
# visibility timeout so a running task is never handed to a second worker. A database outage
# longer than the retries leaves the turn due in the match row: the sweep plays it afterwards.
TURN_TASK = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "soft_time_limit": settings.BOT_TASK_SOFT_TIME_LIMIT,
    "time_limit": settings.BOT_TASK_TIME_LIMIT,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 10,
    "max_retries": 3,
}


@shared_task(**TURN_TASK)
def bot_act(match_id: int, version: int) -> int:
    coordination.clear_queued(match_id, version)
    return play_server_turns(match_id, version)


# Seconds a clock's task may find itself early for its deadline (the clocks of the machine that
# queued it and of the one running it disagree): it waits that long rather than miss it.
CLOCK_SKEW_SECONDS = 1.0


@shared_task(**TURN_TASK)
def clock_act(match_id: int, version: int, deadline: float) -> int:
    """The turn of a person whose clock runs out at `deadline` (a Unix time), queued to the
    clock queue to run then: that one turn only, so the clock worker's slots stay free; the
    server turns after it are queued to the bots queue."""
    early = deadline - time.time()
    if 0 < early <= CLOCK_SKEW_SECONDS:
        time.sleep(early)
    return play_server_turns(match_id, version, turns=1)


def recover(limit: int = SWEEP_BATCH) -> int:
    """One sweep: every match whose turn is due is claimed for a while (so the next sweep leaves
    it alone) and its turn queued again, its quick match's bots seated, or it is abandoned after
    a long pause; and every clock that runs out before the next sweep or so is queued to be
    played when it does. How many."""
    clocks = [] if current_app.conf.task_always_eager else services.clocks_claim(
        ahead=2 * settings.RECOVERY_SWEEP_SECONDS, lease=settings.TURN_RECOVERY_SECONDS,
        limit=limit)
    for match_id, version, deadline in clocks:
        enqueue_clock_turn(match_id, version, deadline)
    due = services.due_claim(lease=settings.TURN_RECOVERY_SECONDS, limit=limit)
    metrics.SWEEPS.inc()
    metrics.SWEEP_RECOVERED.inc(len(due))
    for claimed in due:
        services.due_do(*claimed, turn=enqueue_bot_turn)
    return len(clocks) + len(due)


def enqueue_clock_turn(match_id: int, version: int, deadline) -> None:
    """Queue the timeout of the clock running out at `deadline` to be played then; never raises
    for the broker (the match row has it due shortly after the deadline)."""
    try:
        clock_act.apply_async((match_id, version, deadline.timestamp()), eta=deadline)
    except (KombuError, OSError) as error:
        logger.warning("clock %s@%s not queued (%s): the sweep will play it", match_id, version,
                       error)


@shared_task(
    soft_time_limit=settings.BOT_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.BOT_TASK_TIME_LIMIT,
    expires=settings.RECOVERY_SWEEP_SECONDS * 5,
)
def recover_turns() -> int:
    try:
        found = recover()
    except DatabaseError as error:  # the database is away: the next sweep tries again
        logger.warning("recovery sweep skipped: %s", error)
        return 0
    # Readiness reads it: no sweep for a while means beat, the clock worker or its queue is down.
    coordination.beat(coordination.SWEEP, keep=10 * settings.SWEEP_STALE_SECONDS)
    return found
