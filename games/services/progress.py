"""A match's progress within one write: the engine state as it moves on (actions, forced moves,
rounds settled and dealt, the match's end), and the rows it writes at the end (one statement on
PostgreSQL). Every service that changes a match goes through `Progress`."""

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import hooks, live, sql
from games.engine.actions import Action
from games.engine.registry import get_ruleset
from games.engine.ruleset import Ruleset
from games.errors import Conflict
from games.models import Event, Match, Move, Round, Seat
from games.sql import EventRow
from scoring.services import round_settle

AUTOPLAY_TIMEOUT, AUTOPLAY_ASKED = "timeout", "asked"
# After these the server waits PACE_BREAK times its pace: a trick taken, a round over or dealt.
PACE_BREAKS = frozenset({"trick_won", "round_settled", "round_started"})


def new_seed() -> str:
    """A round's secret seed: unpredictable, so nobody can foresee a deal."""
    return secrets.token_hex(16)


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def in_play(match: Match) -> None:
    """Refuses (Conflict) unless the match is in play: waiting for players, paused, or over."""
    if match.status == Match.Status.WAITING:
        raise Conflict("match_not_started", "open seats are still waiting for players")
    if match.status == Match.Status.PAUSED:
        raise Conflict("match_paused", "everyone was away: take your seat back to play on")
    if match.status != Match.Status.ACTIVE:
        raise Conflict("match_over", f"the match is {match.status}")


# What play changes on a match row; the rest (ruleset, options, owner...) is fixed at creation.
PROGRESS_FIELDS = ("status", "version", "snapshot", "round_number", "current_round", "round_moves",
                   "to_act", "last_event_seq", "standings", "autoplay", "turn_seconds",
                   "deadline_at", "due_at", "updated_at")


@dataclass
class Progress:
    """One write's work on a match: the engine state as it moves on, and the rows to write at
    the end."""

    match: Match
    engine: Ruleset
    loaded_seats: list[Seat] | None = None  # read only when needed: joins, round ends
    state: Any = None
    round: Round | None = None  # the current round's row, once this transaction needs it
    round_open: bool = False
    moves: list[dict] = field(default_factory=list)  # new Move rows, by field name
    events: list[EventRow] = field(default_factory=list)
    seated: list[tuple[int, int]] = field(default_factory=list)  # (user id, seat) taken now
    abandon_at: datetime | None = None  # paused now: when it is abandoned unless someone returns
    # What other apps write with the match's end (games.hooks.Writes), in its one write.
    other_writes: list[hooks.Writes] = field(default_factory=list)

    @classmethod
    def load(cls, match: Match, state: Any = None) -> "Progress":
        """`state`: the match's snapshot already decoded by the caller (not decoded again)."""
        engine = get_ruleset(match.ruleset)
        progress = cls(match, engine)
        if match.snapshot is not None:
            progress.state = engine.from_json(match.snapshot) if state is None else state
            progress.round_open = not engine.round_over(progress.state)
        progress.match.version += 1
        return progress

    @property
    def seats(self) -> list[Seat]:
        if self.loaded_seats is None:
            self.loaded_seats = list(
                Seat.objects.filter(match=self.match).select_related("user").order_by("index")
            )
        return self.loaded_seats

    def event(self, data: dict) -> None:
        self.match.last_event_seq += 1
        self.events.append(EventRow(self.match.last_event_seq, self.match.round_number,
                                    self.match.version, data))

    def apply(self, seat: int, action: Action, actor: str, reason: str = "",
              idempotency_key: str = "") -> None:
        """`seat`'s action, played by `actor` (auto: the server, for `reason`; a person may name
        it with an idempotency key). A person who acts takes their seat back from 托管; a clock
        that ran out puts the seat into it."""
        self.state, events = self.engine.apply(self.state, seat, action)
        self.state = self.engine.remember(self.state, events)
        self.match.round_moves += 1
        self.moves.append({"match_id": self.match.pk, "round_id": self.match.current_round_id,
                           "seq": self.match.round_moves, "seat": seat,
                           "action": action.to_dict(), "actor": actor, "reason": reason,
                           "idempotency_key": idempotency_key, "version": self.match.version})
        by = {"actor": actor, "reason": reason} if reason else {"actor": actor}
        for data in events:
            self.event({**by, **data})
        if actor == Move.Actor.HUMAN and str(seat) in self.match.autoplay:
            self.autoplay(seat, None, "acted")
        elif reason == Move.Reason.TIMEOUT:
            self.autoplay(seat, AUTOPLAY_TIMEOUT, AUTOPLAY_TIMEOUT)

    def autoplay(self, seat: int, why: str | None, cause: str) -> None:
        """Put `seat` into 托管 (`why`) or take it back (None); `cause` goes in the event."""
        autoplay = {k: v for k, v in self.match.autoplay.items() if k != str(seat)}
        if why is not None:
            autoplay[str(seat)] = why
        self.match.autoplay = autoplay
        self.event({"type": "autoplay_on" if why else "autoplay_off", "seat": seat,
                    "reason": cause})

    def advance(self, settle: bool = True) -> bool:
        """Settle a round that ended, deal the next one, take forced actions, until a choice is
        awaited or the match is over. With `settle` False, stop (and return False) where a round
        would be settled or dealt: those writes need the locked transaction."""
        engine = self.engine
        while True:
            if self.round_open and engine.round_over(self.state):
                if not settle:
                    return False
                self._round_finish()
            elif engine.table(self.state).needs_round:
                if not settle:
                    return False
                if self._everyone_away():
                    self._pause()
                    break
                self._round_start()
            elif (seat := engine.to_act(self.state)) is not None and (
                forced := engine.forced_action(self.state)
            ) is not None:
                self.apply(seat, forced, Move.Actor.AUTO, Move.Reason.FORCED)
            else:
                break
        # Who acts now, as the row will say: the server's next turn is told from it.
        self.match.to_act = engine.to_act(self.state)
        if engine.table(self.state).match_over and self.match.status != Match.Status.FINISHED:
            self.set_status(Match.Status.FINISHED)
            self.match.standings = engine.standings(self.state)
            self.event({"type": "match_finished", "standings": self.match.standings})
            self.other_writes += hooks.announce_match_finished(self.match, self.seats,
                                                               engine.sides(self.state))
        return True

    def _everyone_away(self) -> bool:
        """Every person's seat is in 托管 because their clock ran out (none acted since): nobody
        is following. A person who asked for 托管 is present."""
        if not self.match.autoplay:
            return False  # the usual case, told without reading the seats
        people = [s.index for s in self.seats if s.kind == Seat.Kind.HUMAN]
        return bool(people) and all(self.match.autoplay.get(str(i)) == AUTOPLAY_TIMEOUT
                                    for i in people)

    def _pause(self) -> None:
        """Nobody is following: the match waits, between rounds, for one of its people."""
        self.set_status(Match.Status.PAUSED)
        self.abandon_at = timezone.now() + timedelta(seconds=settings.PAUSE_ABANDON_SECONDS)
        self.event({"type": "match_paused", "reason": "away",
                    "abandon_at": self.abandon_at.isoformat()})

    def resume(self, seat: int) -> None:
        """A person of a paused match came back (`seat`): it plays on from the next deal."""
        self.set_status(Match.Status.ACTIVE)
        self.event({"type": "match_resumed", "seat": seat})
        self.advance()

    def set_status(self, status: str) -> None:
        """The match's status, and its copy on the seats (people's match lists filter by it)."""
        self.match.status = status
        Seat.objects.filter(match=self.match).update(match_status=status)
        for seat in self.loaded_seats or ():
            seat.match_status = status

    def _round_start(self) -> None:
        seed = new_seed()
        self.state = self.engine.start_round(self.state, seed)
        match = self.match
        match.round_number += 1
        match.round_moves = 0
        self.round = Round.objects.create(
            match=match, number=match.round_number, seed=seed, seed_hash=seed_hash(seed),
            seating=list(self.engine.table(self.state).seating),
        )
        match.current_round = self.round
        self.round_open = True
        self.event({"type": "round_started", "round": match.round_number,
                    "seed_hash": self.round.seed_hash})

    def _round_finish(self) -> None:
        engine, state = self.engine, self.state
        rnd = self.round or Round.objects.get(pk=self.match.current_round_id)
        table = engine.table(state)
        rnd.result = engine.round_result(state)
        rnd.final_view = engine.full_view(state)
        rnd.seating = list(table.seating)  # as played: a round may move players
        rnd.ended_at = timezone.now()
        rnd.save(update_fields=["result", "final_view", "seating", "ended_at"])
        round_settle(round=rnd, result=rnd.result)
        for seat in self.seats:
            seat.score = table.scores[seat.index]
            seat.eliminated = table.eliminated[seat.index]
        Seat.objects.bulk_update(self.seats, ["score", "eliminated"])
        self.round = rnd
        self.round_open = False
        self.event({"type": "round_settled", "round": rnd.number, "seed": rnd.seed,
                    "seed_hash": rnd.seed_hash, "deltas": rnd.result.get("deltas")})

    def pace(self) -> float:
        """Seconds the server waits before its next move: the match's pace, PACE_BREAK times as
        long when this write took a trick or ended or dealt a round."""
        pace = self.match.server_pace_ms / 1000
        if any(e.data["type"] in PACE_BREAKS for e in self.events):
            pace *= settings.PACE_BREAK
        return pace

    @property
    def server_to_act(self) -> bool:
        """The server plays the next turn: a bot's, or a person's seat in 托管."""
        return self.match.server_turn() is not None

    def _schedule(self) -> None:
        """What is due next and when, written with the progress (see Match.due_at)."""
        match, now = self.match, timezone.now()
        deadline = due = None
        if match.status == Match.Status.WAITING:
            due = match.bots_fill_at
        elif self.server_to_act:
            pace = self.pace()
            grace = settings.PACED_TURN_GRACE_SECONDS if pace else settings.TURN_RECOVERY_SECONDS
            due = now + timedelta(seconds=pace + grace)
        elif match.status == Match.Status.PAUSED:
            due = self.abandon_at or match.due_at
        elif match.status == Match.Status.ACTIVE and match.to_act is not None \
                and match.turn_seconds:
            # A new decision gets a new clock; anything else (a seat taken back, 托管 asked for
            # by someone else) leaves the running one as it is.
            deadline = match.deadline_at
            if self.moves or deadline is None:
                deadline = now + timedelta(seconds=match.turn_seconds)
            due = deadline
        match.deadline_at, match.due_at = deadline, due

    def save(self, expected_version: int | None = None, announce: bool = True) -> bool:
        """Write the progress (under the transaction's lock), or with `expected_version` only if
        the match is still at that version (compare and set: False, nothing written, if not).
        A turn the server plays is announced once committed, unless `announce` is False (the
        caller plays on itself)."""
        match = self.match
        if self.state is not None:
            match.snapshot = self.engine.to_json(self.state)
            match.to_act = self.engine.to_act(self.state)
        self._schedule()
        added = ((Move, self.moves),
                 (Event, [{"match_id": match.pk, **e._asdict()} for e in self.events]),
                 *(rows for writes in self.other_writes for rows in writes.added))
        if expected_version is None:
            sql.write(match, PROGRESS_FIELDS, *added,
                      changed=[rows for writes in self.other_writes for rows in writes.changed])
        elif self.other_writes:  # only a round's end (under the lock) ends a match
            raise RuntimeError("a match's end is written under its row's lock")
        elif not sql.write_if_version(match, PROGRESS_FIELDS, "version", expected_version,
                                      *added):
            return False
        if announce and self.server_to_act:
            match_id, version, pace = match.pk, match.version, self.pace()
            # robust: a failing enqueue must not turn the committed action into an error; the
            # turn is due in the match row, and the recovery sweep will find it.
            transaction.on_commit(
                lambda: hooks.announce_server_turn(match_id, version, delay=pace), robust=True)
        transaction.on_commit(self._tell_streams, robust=True)
        return True

    def _tell_streams(self) -> None:
        """The live streams' notices, once committed: this match moved; these people sat down."""
        match = self.match
        notice = {"match": match.pk, "version": match.version, "status": match.status,
                  "to_act": match.to_act, "types": sorted({e.data["type"] for e in self.events})}
        live.publish(live.match_channel(match.pk), notice)
        for user_id, seat in self.seated:
            live.publish(live.user_channel(user_id), {**notice, "seat": seat})
