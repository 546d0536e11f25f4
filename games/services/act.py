"""One action on a match, and everything it sets off: the write path of people, bots and the
server's turns alike.

An act reads the match, checks who acts and the version, lets the engine apply the action, and
writes. Most acts stay within a round: read without a lock and write with one compare and set,
which a concurrent writer makes fail (StaleVersion). An act that ends a round is done again under
the row's lock in one transaction, with the settlement and the next deal. Side effects (the
server's next turn, the live streams' notices) wait for the commit.
"""

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from games import metrics, selectors, sql
from games.engine.actions import Action
from games.errors import Conflict, Forbidden, NotFound, StaleVersion
from games.models import Event, Match, Move, ServerTurn
from games.selectors import MatchRead
from games.services.progress import Progress, in_play
from games.services.tables import match_fill_due
from games.sql import EventRow, MatchRow, SeatInfo


@dataclass(frozen=True)
class Submitted:
    """What one accepted action left: enough to answer without reading the match again."""

    read: MatchRead  # the match after the action, as the actor reads it
    state: Any
    events: list[EventRow]  # the events this action caused, in order
    server_to_act: bool  # the server plays the next turn (done already, when eager)


@dataclass(frozen=True)
class Replayed:
    """An act whose idempotency key its seat had used already: nothing was applied again."""

    since: int  # the last event before those the original act caused


def action_submit(
    *, match_id: int, seat: int | None, action: Action, expected_version: int, actor: str,
    player=None, reason: str = "", announce: bool = True, idempotency_key: str | None = None,
    row: MatchRow | None = None, state: Any = None,
) -> Submitted | Replayed:
    """Apply one action of `seat` and everything it sets off. A person acting (`player`) acts
    for the seat they hold (NotFound if they hold none, as for a read; Forbidden if `seat`
    names another, or for staff, who may read any match but hold no seat in it); without
    `player` the caller has checked `seat`; `reason` says why the server acts (actor auto).
    `announce` False: the caller plays the next server turn itself. `row` and `state`: the
    match as the caller has just read it and its decoded snapshot (a server turn), so neither is
    done again; the version check guards the write as ever. An `idempotency_key` this
    seat used for an accepted action already gives `Replayed`, whatever the version: the retry
    of an act whose answer was lost. Refusals (NotFound, Forbidden, IllegalAction,
    StaleVersion, Conflict) leave the match exactly as it was."""
    act = functools.partial(_act, match_id, player, seat, action, expected_version, actor,
                            reason, announce, idempotency_key)
    done = act(lock=False, row=row, state=state)
    if done is None:  # the action ends a round: settling it and dealing the next need the lock
        with transaction.atomic():
            done = act(lock=True)
    if isinstance(done, Submitted):
        metrics.ACTS.labels(actor).inc()
    return done


def _act(match_id: int, player, seat: int | None, action: Action, expected_version: int,
         actor: str, reason: str, announce: bool, key: str | None, *,
         lock: bool, row: MatchRow | None = None, state: Any = None
         ) -> Submitted | Replayed | None:
    """The act, once. `lock`: the row is read locked (the caller's transaction holds it to the
    end) and everything is written. Without: the write is a compare and set on the version, and
    an act that ends a round stops before writing anything (None). `row` and `state`: read and
    decoded by the caller already (unlocked only)."""
    if row is None:
        row, state = sql.match_row(match_id, lock=lock), None
    seat = _acting_seat(row, player, seat)
    if (replayed := _replayed(match_id, seat, key, action)) is not None:
        return replayed
    progress = _ready(row, expected_version, state)
    progress.apply(seat, action, actor, reason, key or "")
    if not progress.advance(settle=lock):
        return None
    if not progress.save(None if lock else expected_version, announce):
        # A concurrent writer won: the same act retried at once is answered as a retry.
        if (replayed := _replayed(match_id, seat, key, action)) is not None:
            return replayed
        raise _stale(match_id, expected_version)
    return _submitted(row, seat, progress)


def _stale(match_id: int, expected_version: int) -> StaleVersion:
    current = Match.objects.filter(pk=match_id).values_list("version", flat=True)
    return StaleVersion(expected=expected_version, current=current.first())


# How the server chooses a turn's action: (the state, whose turn, the version the turn is
# awaited at) → the action and the reason its move gives, or None to stop before that turn.
Chooser = Callable[[Any, ServerTurn, int], tuple[Action, str] | None]


def turns_submit(*, match_id: int, expected_version: int, row: MatchRow, state: Any,
                 choose: Chooser, announce: Callable[[], bool]) -> Submitted | None:
    """The server's turns from `expected_version` on (`row` and its decoded `state`, just
    read), as many as `choose` plays in a row, in one write: a chain of bot turns costs one
    statement, not one each. Each turn gets its own version, as if written alone (its move, its
    events, its generator seeded as ever), so the match's log is the same; only the states
    between are never stored. The chain stops where a person is to act, where `choose` says,
    and after a turn that ends a round (settled and dealt under the row's lock). `announce()`,
    asked just before the write: queue the server's next turn (else the caller plays on). None:
    no turn was played; StaleVersion: another writer came first, and nothing is written."""
    plays: list[tuple[int, Action, str, str]] = []
    progress = _ready(row, expected_version, state)
    now, round_over = timezone.now(), False
    # A clock that ran out is the first turn's only: the next decision gets a new clock.
    while not round_over and (who := progress.match.server_turn(None if plays else now)):
        chosen = choose(progress.state, who, expected_version + len(plays))
        if chosen is None:
            break
        plays.append((who.seat, chosen[0], who.actor, chosen[1]))
        round_over = not _turn(progress, len(plays) - 1, plays[-1], settle=False)
    if not plays:
        return None
    if round_over:
        with transaction.atomic():
            row = sql.match_row(match_id, lock=True)
            progress = _ready(row, expected_version)
            for number, play in enumerate(plays):
                _turn(progress, number, play, settle=True)
            progress.save(None, announce())
    elif not progress.save(expected_version, announce()):
        raise _stale(match_id, expected_version)
    for _seat, _action, actor, _reason in plays:
        metrics.ACTS.labels(actor).inc()
    return _submitted(row, plays[-1][0], progress)


def _turn(progress: Progress, number: int, play: tuple, *, settle: bool) -> bool:
    """The write's `number`th server turn applied, with what it sets off (`Progress.advance`);
    each turn after the first takes a version of its own."""
    progress.match.version += bool(number)
    progress.apply(*play)
    return progress.advance(settle=settle)


def _acting_seat(row: MatchRow | None, player, seat: int | None) -> int:
    """The seat that acts. No such match, or one the person may not read (no seat, not staff):
    NotFound, alike, as a read answers (the refusal must not tell that the match exists). A
    seat that is not the person's: Forbidden."""
    if row is None:
        raise NotFound()
    if player is None:
        return seat
    mine = next((s.index for s in row.seats if s.user_id == player.pk), None)
    if mine is None and not player.is_staff:
        raise NotFound()
    if mine is None or seat not in (None, mine):
        raise Forbidden("you can act only for your own seat")
    return mine


def _replayed(match_id: int, seat: int, key: str | None, action: Action) -> Replayed | None:
    """The act `seat` made with `key`, if any (one query); Conflict if it was another action."""
    if key is None:
        return None
    first_event = (Event.objects.filter(match_id=match_id, version=OuterRef("version"))
                   .order_by("seq").values("seq")[:1])
    found = (Move.objects.filter(match_id=match_id, seat=seat, idempotency_key=key)
             .values_list("action", Subquery(first_event)).first())
    if found is None:
        return None
    done, first_seq = found
    if done != json.loads(json.dumps(action.to_dict())):
        raise Conflict("idempotency_key_reused", "This Idempotency-Key was used for another "
                       "action: use a new key for each action.", action=done)
    return Replayed(first_seq - 1)


def _ready(row: MatchRow, expected_version: int, state: Any = None) -> Progress:
    """The match's progress, ready for an action, or the refusal: a stale version, no action
    awaited. `state`: the row's snapshot, decoded already."""
    match = row.match
    if match.version != expected_version:
        raise StaleVersion(expected=expected_version, current=match.version)
    in_play(match)
    return Progress.load(match, state)


def _submitted(row: MatchRow, seat: int, progress: Progress) -> Submitted:
    seats = row.seats
    if progress.loaded_seats is not None:  # a round ended: the seats' scores moved
        seats = [SeatInfo.of(s) for s in progress.loaded_seats]
    number, hashed = row.round_number, row.seed_hash
    if progress.round is not None:
        number, hashed = progress.round.number, progress.round.seed_hash
    read = MatchRead(progress.match, number, hashed, seats, seats[seat], None)
    return Submitted(read, progress.state, progress.events, progress.server_to_act)


@dataclass(frozen=True)
class Answer:
    """A person's act as the API answers it: the match as they read it now and the engine
    state it holds (None: build the view from the snapshot read)."""

    read: MatchRead
    state: Any
    replayed: bool  # the act had been applied before: nothing was done now


def player_act(*, user, match_id: int, seat: int | None, action: Action,
               expected_version: int, idempotency_key: str | None,
               row: MatchRow | None = None) -> Answer:
    """`user`'s act, and what they see after it: with the events it caused, from the state the
    act holds; read again when the server played on (eager bots have replied by now, a worker
    may have), or for a retry (the match as it is now, with every event since the act). `row`:
    the match as the caller has just read it (sql.match_row, unlocked)."""

    def submit(row=None):
        return action_submit(match_id=match_id, seat=seat, player=user, action=action,
                             expected_version=expected_version, actor=Move.Actor.HUMAN,
                             idempotency_key=idempotency_key, row=row)

    try:
        done = submit(row)
    except Conflict as refusal:
        if refusal.code != "match_not_started" or not match_fill_due(match_id=match_id):
            raise
        done = submit()  # the bots have just sat down: stale_version, with the new version
    if isinstance(done, Replayed):
        return Answer(selectors.match_for(user, match_id, events_after=done.since,
                                          events=selectors.MAX_EVENTS), None, True)
    if done.server_to_act:
        since = done.events[0].seq - 1
        return Answer(selectors.match_for(user, match_id, events_after=since,
                                          events=selectors.MAX_EVENTS), None, False)
    return Answer(replace(done.read, events=done.events), done.state, False)
