"""Every write to a match, one function per use case, each one transaction.

The write path is `action_submit`: lock the match row, check the expected version, let the engine
apply the action, append the moves (and the engine's forced ones), settle and deal rounds as they
end, store the new snapshot and bump the version. Bots, the API and admin replays all come through
here; side effects (the next bot turn) wait for the commit.
"""

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from games import hooks, live, sql
from games.engine.actions import Action
from games.engine.errors import IllegalAction
from games.engine.registry import get_ruleset
from games.engine.ruleset import Ruleset
from games.engine.specs import MISSING, Int, Nullable, parse
from games.errors import Conflict, Forbidden, MatchFull, NotFound, StaleVersion
from games.models import (
    BOT_LEVELS,
    DEFAULT_TURN_SECONDS,
    TURN_SECONDS,
    Event,
    Match,
    Move,
    Round,
    RulesetDefaults,
    Seat,
    Table,
    options_hash,
)
from games.selectors import MatchRead
from games.sql import EventRow, SeatInfo
from scoring.services import round_settle

DEFAULT_BOT_LEVEL = "normal"
TURN_CLOCK = Nullable(Int(*TURN_SECONDS, "seconds a person has for each decision; null: no "
                          "clock; missing: none when one person plays against bots, "
                          f"{DEFAULT_TURN_SECONDS} when people share the table"))
AUTOPLAY_TIMEOUT, AUTOPLAY_ASKED = "timeout", "asked"
INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed
INVITE_LENGTH = 10


def new_seed() -> str:
    """A round's secret seed: unpredictable, so nobody can foresee a deal."""
    return secrets.token_hex(16)


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def _invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


# What play changes on a match row; the rest (ruleset, options, owner...) is fixed at creation.
PROGRESS_FIELDS = ("status", "version", "snapshot", "round_number", "current_round", "round_moves",
                   "to_act", "last_event_seq", "standings", "autoplay", "turn_seconds",
                   "deadline_at", "due_at", "updated_at")


@dataclass
class _Progress:
    """One transaction's work on a locked match: the engine state as it moves on, and the rows
    to write at the end."""

    match: Match
    engine: Ruleset
    loaded_seats: list[Seat] | None = None  # read only when needed: joins, round ends
    state: Any = None
    round: Round | None = None  # the current round's row, once this transaction needs it
    round_open: bool = False
    moves: list[dict] = field(default_factory=list)  # new Move rows, by field name
    events: list[EventRow] = field(default_factory=list)
    seated: list[tuple[int, int]] = field(default_factory=list)  # (user id, seat) taken now

    @classmethod
    def load(cls, match: Match, state: Any = None) -> "_Progress":
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
        self.match.round_moves += 1
        self.moves.append({"match_id": self.match.pk, "round_id": self.match.current_round_id,
                           "seq": self.match.round_moves, "seat": seat,
                           "action": action.to_dict(), "actor": actor, "reason": reason,
                           "idempotency_key": idempotency_key, "version": self.match.version})
        by = {"actor": actor, "reason": reason} if reason else {"actor": actor}
        for data in events:
            self.event({**data, **by})
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
                self._round_start()
            elif (seat := engine.to_act(self.state)) is not None and (
                forced := engine.forced_action(self.state)
            ) is not None:
                self.apply(seat, forced, Move.Actor.AUTO, Move.Reason.FORCED)
            else:
                break
        if engine.table(self.state).match_over and self.match.status != Match.Status.FINISHED:
            self.set_status(Match.Status.FINISHED)
            self.match.standings = engine.standings(self.state)
            self.event({"type": "match_finished", "standings": self.match.standings})
        return True

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

    @property
    def server_to_act(self) -> bool:
        """The seat to act is played by the server: a bot, or a person's seat in 托管."""
        match = self.match
        return match.status == Match.Status.ACTIVE and match.to_act is not None and (
            match.to_act in match.bot_seats or str(match.to_act) in match.autoplay)

    def _schedule(self) -> None:
        """What is due next and when, written with the progress (see Match.due_at)."""
        match, now = self.match, timezone.now()
        deadline = due = None
        if match.status == Match.Status.WAITING:
            due = match.bots_fill_at
        elif self.server_to_act:
            due = now + timedelta(seconds=settings.TURN_RECOVERY_SECONDS)
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
                 (Event, [{"match_id": match.pk, **e._asdict()} for e in self.events]))
        if expected_version is None:
            sql.write(match, PROGRESS_FIELDS, *added)
        elif not sql.write_if_version(match, PROGRESS_FIELDS, "version", expected_version,
                                      *added):
            return False
        if announce and self.server_to_act:
            match_id, version = match.pk, match.version
            # robust: a failing enqueue must not turn the committed action into an error; the
            # turn is due in the match row, and the recovery sweep will find it.
            transaction.on_commit(lambda: hooks.announce_server_turn(match_id, version),
                                  robust=True)
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


def _seat_specs(seats: Sequence[Mapping] | None, players: int,
                table: Table | None = None) -> list[dict]:
    """Seats as asked ({type: human} or {type: bot, level}), or the creator and bots (at the
    table's levels, else normal); seat 0 is the creator's."""
    if seats is None:
        seats = [{"type": "human"}] + [
            {"type": "bot", "level": table.bot_level(i) if table else DEFAULT_BOT_LEVEL}
            for i in range(1, players)]
    specs = [{"type": "human"} if s["type"] == "human" else
             {"type": "bot", "level": s.get("level", DEFAULT_BOT_LEVEL)} for s in seats]
    if len(specs) != players:
        raise IllegalAction("invalid_seats", "one seat per player", players=players,
                            seats=len(specs))
    if specs[0]["type"] != "human":
        raise IllegalAction("invalid_seats", "seat 0 is the creator's: a human seat", seat=0)
    for i, spec in enumerate(specs):
        if spec.get("level", DEFAULT_BOT_LEVEL) not in BOT_LEVELS:
            raise IllegalAction("invalid_seats", f"bot level is one of {BOT_LEVELS}", seat=i)
    return specs


@transaction.atomic
def match_create(*, owner, ruleset: str | None, options: Mapping | None, seats: Sequence | None,
                 table: str | None = None) -> Match:
    """A new match with `owner` in seat 0, from a table (its ruleset, options and bots) or a
    ruleset; dealt at once when no other human seat is open."""
    chosen = None if table is None else _table_named(table)
    engine = get_ruleset(_ruleset_of(ruleset, chosen))
    options = dict(options or {})
    clock = _turn_clock(options.pop("turn_seconds", MISSING), chosen)
    parsed = _options_for(engine, chosen, options, seats)
    return _match_open(owner, engine, parsed, _seat_specs(seats, parsed["players"], chosen),
                       chosen, clock=clock)


def _turn_clock(asked, table: Table | None) -> int | None:
    """The turn clock asked for (the option `turn_seconds`: null for none, else 5..300) or the
    table's; 0: none; None: nobody chose (decided when the match starts)."""
    if asked is MISSING:
        return None if table is None else table.turn_seconds
    seconds = parse(TURN_CLOCK, asked, "invalid_option", "option", "turn_seconds")
    if table is not None and not table.allow_override and table.turn_seconds != (seconds or 0):
        raise IllegalAction("invalid_option", f"turn_seconds: table {table.slug!r} fixes its "
                            "options", option="turn_seconds", table=table.slug)
    return seconds or 0


def _match_open(owner, engine: Ruleset, options: dict, seat_specs: list[dict],
                table: Table | None, bots_fill_at=None, clock: int | None = None) -> Match:
    match = Match.objects.create(
        ruleset=engine.name, options=options, options_hash=options_hash(options),
        turn_seconds=clock, table=table,
        owner=owner, invite_code=_invite_code(), bots_fill_at=bots_fill_at,
        bot_seats=[i for i, spec in enumerate(seat_specs) if spec["type"] == "bot"],
    )
    Seat.objects.bulk_create(
        Seat(match=match, index=i, kind=spec["type"], bot_level=spec.get("level", ""),
             user=owner if i == 0 else None, match_status=match.status)
        for i, spec in enumerate(seat_specs)
    )
    progress = _Progress.load(match)
    progress.event({"type": "match_created", "seats": [s["type"] for s in seat_specs]})
    progress.seated.append((owner.pk, 0))
    _start_if_full(progress)
    progress.save()
    return match


def _start_if_full(progress: _Progress) -> None:
    if any(s.kind == Seat.Kind.HUMAN and s.user_id is None for s in progress.seats):
        return
    match = progress.match
    humans = [s.kind == Seat.Kind.HUMAN for s in progress.seats]
    if match.turn_seconds is None:
        match.turn_seconds = DEFAULT_TURN_SECONDS if sum(humans) >= 2 else 0
    progress.state = progress.engine.new_match(match.options, humans)
    scores = progress.engine.table(progress.state).scores
    for seat in progress.seats:
        seat.score = scores[seat.index]  # the starting score, where the ruleset has one
    Seat.objects.bulk_update(progress.seats, ["score"])
    progress.set_status(Match.Status.ACTIVE)
    progress.event({"type": "match_started"})
    progress.advance()


def _seat_taken(progress: _Progress, user) -> None:
    """`user` in the first open human seat; the match starts if that was the last one."""
    open_seats = [s for s in progress.seats if s.kind == Seat.Kind.HUMAN and s.user_id is None]
    # A quick match whose wait is over is the bots' already, even before they sit down.
    if progress.match.status != Match.Status.WAITING or progress.match.bots_due or not open_seats:
        raise MatchFull()
    seat = open_seats[0]
    seat.user = user
    progress.seated.append((user.pk, seat.index))
    seat.save(update_fields=["user"])
    progress.event({"type": "player_joined", "seat": seat.index})
    _start_if_full(progress)


@transaction.atomic
def match_join(*, user, code: str, match_id: int | None = None) -> Match:
    """Take the first open human seat of the match with this invite code (joining twice is a
    no-op)."""
    found = Match.objects.select_for_update().filter(invite_code=str(code).strip().upper())
    if match_id is not None:
        found = found.filter(pk=match_id)
    match = found.first()
    if match is None:
        raise IllegalAction("invalid_invite", "no match has this invite code")
    if Seat.objects.filter(match=match, user=user).exists():
        return match
    progress = _Progress.load(match)
    _seat_taken(progress, user)
    progress.save()
    return match


@transaction.atomic
def match_leave(*, user, match_id: int) -> Match:
    """Leaving keeps the match exactly as it is, to be resumed later; only a guest leaving a match
    that has not started gives the seat back."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise NotFound()
    seat = Seat.objects.filter(match=match, user=user).first()
    if seat is None or match.status != Match.Status.WAITING or seat.index == 0:
        return match
    progress = _Progress.load(match)
    Seat.objects.filter(pk=seat.pk).update(user=None)
    progress.event({"type": "player_left", "seat": seat.index})
    progress.save()
    return match


@dataclass(frozen=True)
class Submitted:
    """What one accepted action left: enough to answer without reading the match again."""

    read: MatchRead  # the match after the action, as the actor reads it
    state: Any
    events: list[EventRow]  # the events this action caused, in order
    server_to_act: bool  # the server plays the next turn (done already, when eager)


def _seat_of(player, seats: list[SeatInfo], claimed: int | None) -> int:
    mine = next((s.index for s in seats if s.user_id == player.pk), None)
    if mine is None or claimed not in (None, mine):
        raise Forbidden("you can act only for your own seat")
    return mine


def _acting_seat(row, player, seat: int | None) -> int:
    """The seat that acts: no such match (NotFound), or not the person's seat (Forbidden)."""
    if row is None:
        raise NotFound()
    return seat if player is None else _seat_of(player, row.seats, seat)


def _ready(row, expected_version: int, state: Any = None) -> "_Progress":
    """The match's progress, ready for an action, or the refusal: a stale version, no action
    awaited. `state`: the row's snapshot, decoded already."""
    match = row.match
    if match.version != expected_version:
        raise StaleVersion(expected=expected_version, current=match.version)
    if match.status == Match.Status.WAITING:
        raise IllegalAction("match_not_started", "open seats are still waiting for players")
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        raise IllegalAction("match_over", f"the match is {match.status}")
    return _Progress.load(match, state)


@dataclass(frozen=True)
class Replayed:
    """An act whose idempotency key its seat had used already: nothing was applied again."""

    since: int  # the last event before those the original act caused


def _replayed(match_id: int, seat: int, key: str, action: Action) -> Replayed | None:
    """The act `seat` made with `key`, if any (one query); Conflict if it was another action."""
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


def action_submit(
    *, match_id: int, seat: int | None, action: Action, expected_version: int, actor: str,
    player=None, reason: str = "", announce: bool = True, idempotency_key: str | None = None,
    row=None, state: Any = None,
) -> "Submitted | Replayed":
    """Apply one action of `seat` and everything it sets off. A person acting (`player`) acts
    for the seat they hold (Forbidden if they hold none, or `seat` names another); without
    `player` the caller has checked `seat`; `reason` says why the server acts (actor auto).
    `announce` False: the caller plays the next server turn itself. `row` and `state`: the
    match as the caller has just read it and decoded its snapshot (a server turn), so neither is
    done again; the version check guards the write as ever. An `idempotency_key` this
    seat used for an accepted action already gives `Replayed`, whatever the version: the retry
    of an act whose answer was lost. Refusals (NotFound, Forbidden, IllegalAction,
    StaleVersion, Conflict) leave the match exactly as it was.

    Most actions stay within a round: read, apply, and one compare-and-set write that a
    concurrent writer makes fail (StaleVersion). An action that ends a round is done again
    under the row's lock in one transaction, with the settlement and the next deal."""
    if row is None:
        row, state = sql.match_row(match_id), None
    seat = _acting_seat(row, player, seat)
    if idempotency_key is not None and (
            replayed := _replayed(match_id, seat, idempotency_key, action)) is not None:
        return replayed
    progress = _ready(row, expected_version, state)
    progress.apply(seat, action, actor, reason, idempotency_key or "")
    if progress.advance(settle=False):
        if not progress.save(expected_version, announce):
            # A concurrent writer won: the same act retried at once is answered as a retry.
            if idempotency_key is not None and (
                    replayed := _replayed(match_id, seat, idempotency_key, action)):
                return replayed
            current = Match.objects.filter(pk=match_id).values_list("version", flat=True)
            raise StaleVersion(expected=expected_version, current=current.first())
    else:
        with transaction.atomic():
            row = sql.match_row(match_id, lock=True)
            seat = _acting_seat(row, player, seat)
            if idempotency_key is not None and (
                    replayed := _replayed(match_id, seat, idempotency_key, action)):
                return replayed
            progress = _ready(row, expected_version)
            progress.apply(seat, action, actor, reason, idempotency_key or "")
            progress.advance()
            progress.save(announce=announce)
    seats = row.seats
    if progress.loaded_seats is not None:  # a round ended: the seats' scores moved
        seats = [SeatInfo.of(s) for s in progress.loaded_seats]
    number, hashed = row.round_number, row.seed_hash
    if progress.round is not None:
        number, hashed = progress.round.number, progress.round.seed_hash
    read = MatchRead(progress.match, number, hashed, seats, seats[seat], None)
    return Submitted(read, progress.state, progress.events, progress.server_to_act)


# -- what is due: 托管, clocks, the recovery sweep -----------------------------------------------


@transaction.atomic
def autoplay_set(*, user, match_id: int, on: bool) -> Match:
    """The person asks the server to play their seat (托管) or takes it back; asking twice
    changes nothing. A seat put into 托管 on its turn is played at once."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    seat = None if match is None else Seat.objects.filter(match=match, user=user).first()
    if seat is None:
        raise NotFound()
    if match.status != Match.Status.ACTIVE:
        raise IllegalAction("match_not_started" if match.status == Match.Status.WAITING
                            else "match_over", f"the match is {match.status}")
    if (str(seat.index) in match.autoplay) == on:
        return match
    progress = _Progress.load(match)
    progress.autoplay(seat.index, AUTOPLAY_ASKED if on else None, "asked")
    progress.save()
    return match


def due_claim(*, lease: float, limit: int, match_id: int | None = None) -> list[tuple]:
    """The matches whose turn is due now (the server is to act, a clock ran out, a quick match's
    bots are to sit down), `limit` at most, each claimed for `lease` seconds: a concurrent or the
    next sweep skips them until then, and if the work queued for them is lost, they come back.
    (id, version, status) each. `match_id`: that match only (a request that found it due)."""
    now = timezone.now()
    with transaction.atomic():
        due = Match.objects.select_for_update(skip_locked=True).filter(due_at__lte=now)
        if match_id is not None:
            due = due.filter(pk=match_id)
        rows = list(due.order_by("due_at").values_list("id", "version", "status")[:limit])
        Match.objects.filter(pk__in=[row[0] for row in rows]).update(
            due_at=now + timedelta(seconds=lease))
    return rows


def overdue_handle(match: Match) -> bool:
    """A request found `match` past its due time: do what is due now rather than at the next
    sweep (seat a quick match's bots; announce the server's turn, played at once when tasks run
    in-process). True if the match may have changed."""
    if match.due_at is None or match.due_at > timezone.now():
        return False
    claimed = due_claim(lease=settings.TURN_RECOVERY_SECONDS, limit=1, match_id=match.pk)
    if not claimed:
        return False  # someone else has it
    _, version, status = claimed[0]
    if status == Match.Status.WAITING:
        return match_fill_due(match_id=match.pk)
    hooks.announce_server_turn(match.pk, version)
    return True


# -- tables, quick matches, staff ------------------------------------------------------------------


def _table_named(slug: str) -> Table:
    table = Table.objects.filter(slug=slug, active=True).first()
    if table is None:
        raise IllegalAction("unknown_table", f"no table {slug!r}", table=slug)
    return table


def _ruleset_of(asked: str | None, table: Table | None) -> str:
    if table is None:
        if asked is None:
            raise IllegalAction("invalid_input", "ruleset: required without a table",
                                field="ruleset")
        return asked
    if asked not in (None, table.ruleset):
        raise IllegalAction("invalid_input", f"ruleset: table {table.slug!r} plays "
                            f"{table.ruleset}", field="ruleset")
    return table.ruleset


def _options_for(engine: Ruleset, table: Table | None, asked: Mapping | None,
                 seats: Sequence | None) -> dict:
    """The client's options over the table's (a table that fixes them refuses any other value),
    or over the site-wide defaults, validated; `players` defaults to the number of seats."""
    asked = dict(asked or {})
    if table is not None and not table.allow_override:
        changed = sorted(k for k, v in asked.items() if k not in table.options
                         or table.options[k] != v)
        if changed:
            raise IllegalAction("invalid_option", f"{changed[0]}: table {table.slug!r} fixes "
                                "its options", option=changed[0], table=table.slug)
        return engine.parse_options(table.options)
    if seats is not None and "players" not in asked:
        asked["players"] = len(seats)
    base = table.options if table is not None else site_defaults(engine.name)
    return engine.parse_options({**base, **asked})


def site_defaults(ruleset: str) -> dict:
    """The options staff set for `ruleset` (none: the ruleset's own defaults apply)."""
    found = RulesetDefaults.objects.filter(ruleset=ruleset).values_list("options", flat=True)
    return found.first() or {}


def _bots_seated(progress: _Progress) -> None:
    """Bots at the table's levels take every open human seat, and the match starts."""
    match = progress.match
    taken = [s for s in progress.seats if s.kind == Seat.Kind.HUMAN and s.user_id is None]
    for seat in taken:
        seat.kind, seat.bot_level = Seat.Kind.BOT, match.table.bot_level(seat.index)
    Seat.objects.bulk_update(taken, ["kind", "bot_level"])
    match.bot_seats = sorted([*match.bot_seats, *(s.index for s in taken)])
    Match.objects.filter(pk=match.pk).update(bot_seats=match.bot_seats)
    progress.event({"type": "bots_joined", "seats": [s.index for s in taken],
                    "levels": [s.bot_level for s in taken]})
    _start_if_full(progress)


def _bots_if_due(match: Match) -> bool:
    """On a locked match: bots take its open seats if its wait is over."""
    if not match.bots_due:
        return False
    progress = _Progress.load(match)
    _bots_seated(progress)
    progress.save()
    return True


@transaction.atomic
def match_fill_due(*, match_id: int) -> bool:
    """Bots take the open seats of a quick match whose wait is over, and it starts; False when
    there is nothing to do (not due yet, filled already, no such match), so running it again is
    harmless. The recovery sweep and any read or act after the time call it."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    return match is not None and _bots_if_due(match)


@dataclass(frozen=True)
class Seated:
    match: Match
    opened: bool  # a new match was opened for the caller


@transaction.atomic
def table_play(*, user, slug: str) -> Seated:
    """Quick match: `user` at the quick match of this table they already wait at, else at the
    oldest one with an open seat, else at a new one. Bots take the seats nobody took once the
    table's wait is over (at once when it has none)."""
    # The table's row lock queues its quick plays: two people arriving together share a match.
    table = Table.objects.select_for_update().filter(slug=slug, active=True).first()
    if table is None:
        raise NotFound("no such table", table=slug)
    waiting = table.matches.select_for_update(of=("self",)).filter(
        status=Match.Status.WAITING, bots_fill_at__isnull=False)
    mine = waiting.filter(seats__user=user).first()
    if mine is not None:
        _bots_if_due(mine)
        return Seated(mine, False)
    match = waiting.filter(bots_fill_at__gt=timezone.now()).order_by("bots_fill_at", "pk").first()
    if match is not None:
        progress = _Progress.load(match)
        _seat_taken(progress, user)
        progress.save()
        return Seated(match, False)
    engine = get_ruleset(table.ruleset)
    options = engine.parse_options(table.options)
    players = options["players"]
    if table.bots_after == 0:
        return Seated(_match_open(user, engine, options, _seat_specs(None, players, table),
                                  table, clock=table.turn_seconds), True)
    fill_at = timezone.now() + timedelta(seconds=table.bots_after)
    # The match row says when its bots are due: the recovery sweep seats them then.
    return Seated(_match_open(user, engine, options, [{"type": "human"}] * players, table,
                              fill_at, clock=table.turn_seconds), True)


@transaction.atomic
def match_abort(*, match_id: int, reason: str) -> Match:
    """Staff stop a stuck match for good: it is `aborted`, nobody acts in it again, the scores
    stay as they were (the round in play is not settled) and an event gives the reason. Only
    staff may (the admin checks the permission and logs who)."""
    reason = reason.strip()
    if not reason:
        raise IllegalAction("invalid_input", "reason: required", field="reason")
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise NotFound()
    if match.status not in (Match.Status.WAITING, Match.Status.ACTIVE):
        raise Conflict("match_over", f"the match is {match.status} already",
                       status=match.status)
    progress = _Progress.load(match)
    progress.set_status(Match.Status.ABORTED)
    progress.event({"type": "match_aborted", "reason": reason})
    progress.save()
    return match
