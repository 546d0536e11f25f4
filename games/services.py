"""Every write to a match, one function per use case, each one transaction.

The write path is `action_submit`: lock the match row, check the expected version, let the engine
apply the action, append the moves (and the engine's forced ones), settle and deal rounds as they
end, store the new snapshot and bump the version. Bots, the API and admin replays all come through
here; side effects (the next bot turn) wait for the commit.
"""

import functools
import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import DateTimeField, JSONField, Model
from django.utils import timezone
from rest_framework.exceptions import PermissionDenied

from bots.strategies import LEVELS as BOT_LEVELS
from games.engine.actions import Action
from games.engine.errors import IllegalAction
from games.engine.registry import get_ruleset
from games.engine.ruleset import Ruleset
from games.errors import Conflict
from games.models import Event, Match, Move, Round, Seat
from games.selectors import SeatInfo, match_with_seats
from scoring.services import round_settle

DEFAULT_BOT_LEVEL = "normal"
INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed
INVITE_LENGTH = 10


class StaleVersion(Conflict):
    default_code = "stale_version"


class MatchFull(Conflict):
    default_code = "match_full"
    default_detail = "Every human seat of this match is taken."


def new_seed() -> str:
    """A round's secret seed: unpredictable, so nobody can foresee a deal."""
    return secrets.token_hex(16)


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def _invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


# What play changes on a match row; the rest (ruleset, options, owner...) is fixed at creation.
PROGRESS_FIELDS = ("status", "version", "snapshot", "round_number", "current_round", "round_moves",
                   "to_act", "last_event_seq", "standings", "updated_at")


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
    moves: list[Move] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    @classmethod
    def load(cls, match: Match) -> "_Progress":
        engine = get_ruleset(match.ruleset)
        progress = cls(match, engine)
        if match.snapshot is not None:
            progress.state = engine.from_json(match.snapshot)
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
        self.events.append(
            Event(match=self.match, seq=self.match.last_event_seq, data=data,
                  round_number=self.match.round_number, version=self.match.version)
        )

    def apply(self, seat: int, action: Action, actor: str) -> None:
        self.state, events = self.engine.apply(self.state, seat, action)
        self.match.round_moves += 1
        self.moves.append(
            Move(match=self.match, round_id=self.match.current_round_id,
                 seq=self.match.round_moves, seat=seat, action=action.to_dict(), actor=actor,
                 version=self.match.version)
        )
        for data in events:
            self.event({**data, "actor": actor})

    def advance(self) -> None:
        """Settle a round that ended, deal the next one, take forced actions, until a choice is
        awaited or the match is over."""
        engine = self.engine
        while True:
            if self.round_open and engine.round_over(self.state):
                self._round_finish()
            elif engine.needs_round(self.state):
                self._round_start()
            elif (seat := engine.to_act(self.state)) is not None and (
                forced := engine.forced_action(self.state)
            ) is not None:
                self.apply(seat, forced, Move.Actor.AUTO)
            else:
                break
        if engine.match_over(self.state) and self.match.status != Match.Status.FINISHED:
            self.match.status = Match.Status.FINISHED
            self.match.standings = engine.standings(self.state)
            self.event({"type": "match_finished", "standings": self.match.standings})

    def _round_start(self) -> None:
        seed = new_seed()
        self.state = self.engine.start_round(self.state, seed)
        match = self.match
        match.round_number += 1
        match.round_moves = 0
        self.round = Round.objects.create(
            match=match, number=match.round_number, seed=seed, seed_hash=seed_hash(seed),
            seating=_seating(self.engine.view(self.state, None), self.players),
        )
        match.current_round = self.round
        self.round_open = True
        self.event({"type": "round_started", "round": match.round_number,
                    "seed_hash": self.round.seed_hash})

    def _round_finish(self) -> None:
        engine, state = self.engine, self.state
        rnd = self.round or Round.objects.get(pk=self.match.current_round_id)
        rnd.result = engine.round_result(state)
        rnd.final_view = engine.full_view(state)
        rnd.seating = _seating(rnd.final_view, self.players)
        rnd.ended_at = timezone.now()
        rnd.save(update_fields=["result", "final_view", "seating", "ended_at"])
        round_settle(round=rnd, result=rnd.result)
        public = engine.view(state, None)
        eliminated = _eliminated(public, self.players)
        for seat, score in zip(self.seats, engine.scores(state), strict=True):
            seat.score = score
            seat.eliminated = eliminated[seat.index]
        Seat.objects.bulk_update(self.seats, ["score", "eliminated"])
        self.round_open = False
        self.event({"type": "round_settled", "round": rnd.number, "seed": rnd.seed,
                    "seed_hash": rnd.seed_hash, "deltas": rnd.result.get("deltas")})

    @property
    def players(self) -> int:
        return len(self.engine.scores(self.state))

    @property
    def bot_to_act(self) -> bool:
        match = self.match
        return match.status == Match.Status.ACTIVE and match.to_act in match.bot_seats

    def save(self) -> None:
        match = self.match
        if self.state is not None:
            match.snapshot = self.engine.to_json(self.state)
            match.to_act = self.engine.to_act(self.state)
        _write(match, self.moves, self.events)
        if self.bot_to_act:
            match_id, version = match.pk, match.version

            def enqueue_bot_turn() -> None:
                from bots.tasks import enqueue_bot_turn  # bots.tasks imports this module

                enqueue_bot_turn(match_id, version)

            # robust: a failing bot must not turn the committed human action into an error.
            transaction.on_commit(enqueue_bot_turn, robust=True)


# The write path's SQL is written out rather than built by the ORM: compiling the ORM's queries
# cost an act more than everything else it does (see bench/api.py).

@functools.cache
def _columns(model: type[Model], names: tuple[str, ...] | None = None) -> tuple:
    """(field, whether its value needs the field's conversion): JSON and times do; the other
    columns written here are whole numbers and strings the driver takes as they are."""
    fields = ([model._meta.get_field(name) for name in names] if names else
              [f for f in model._meta.concrete_fields if not f.primary_key])
    return tuple((f, isinstance(f, JSONField | DateTimeField)) for f in fields)


def _values(obj: Model, columns: tuple, adding: bool, db) -> list:
    # pre_save fills auto_now(_add) times as Model.save would.
    return [f.get_db_prep_save(f.pre_save(obj, adding), db) if convert else f.pre_save(obj, adding)
            for f, convert in columns]


def _insert(rows: Sequence[Model], db) -> tuple[str, list]:
    """One INSERT of new rows of one model, their ids not read back (nobody needs them)."""
    model = type(rows[0])
    columns = _columns(model)
    qn = db.ops.quote_name
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (f"INSERT INTO {qn(model._meta.db_table)} ({', '.join(qn(f.column) for f, _ in columns)})"
           f" VALUES {', '.join([row] * len(rows))}")
    return sql, [value for obj in rows for value in _values(obj, columns, True, db)]


def _update(obj: Model, names: tuple[str, ...], db) -> tuple[str, list]:
    columns = _columns(type(obj), names)
    qn = db.ops.quote_name
    sets = ", ".join(f"{qn(f.column)} = %s" for f, _ in columns)
    return (f"UPDATE {qn(obj._meta.db_table)} SET {sets} WHERE {qn(obj._meta.pk.column)} = %s",
            [*_values(obj, columns, False, db), obj.pk])


def _write(match: Match, moves: list[Move], events: list[Event]) -> None:
    """Append the moves and events, store the match's progress: on PostgreSQL in one statement
    (the INSERTs as data-modifying WITH queries), elsewhere one statement each."""
    db = transaction.get_connection()
    inserts = [_insert(rows, db) for rows in (moves, events) if rows]
    sql, params = _update(match, PROGRESS_FIELDS, db)
    with db.cursor() as cursor:
        if db.vendor == "postgresql" and inserts:
            sql = "WITH " + ", ".join(
                f"added_{i} AS ({insert})" for i, (insert, _) in enumerate(inserts)) + " " + sql
            params = [p for _, values in inserts for p in values] + params
        else:
            for insert, values in inserts:
                cursor.execute(insert, values)
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError(f"match {match.pk}: the progress update changed no row")


def _seating(view: Mapping, players: int) -> list[int]:
    seating = view.get("seating")
    return list(seating) if seating else list(range(players))


def _eliminated(view: Mapping, players: int) -> list[bool]:
    """Which seats the engine reports as out of the match (gandengyan only has eliminations)."""
    out = [False] * players
    for i, info in enumerate(view.get("seats") or ()):
        if isinstance(info, Mapping):
            out[info.get("seat", i)] = bool(info.get("eliminated", False))
    return out


def _parse_seats(raw: Sequence | None, players: int | None) -> list[dict]:
    if raw is None:
        count = players or 0
        return [{"type": "human"}] + [{"type": "bot", "level": DEFAULT_BOT_LEVEL}] * (count - 1)
    seats = []
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping) or item.get("type") not in ("human", "bot"):
            raise IllegalAction("invalid_seats", "each seat is {type: human} or {type: bot, "
                                "level}", seat=i)
        if set(item) - {"type", "level"}:
            raise IllegalAction("invalid_seats", "unknown seat field", seat=i,
                                fields=sorted(set(item) - {"type", "level"}))
        if item["type"] == "bot":
            level = item.get("level", DEFAULT_BOT_LEVEL)
            if level not in BOT_LEVELS:
                raise IllegalAction("invalid_seats", f"bot level is one of {BOT_LEVELS}", seat=i)
            seats.append({"type": "bot", "level": level})
        else:
            seats.append({"type": "human"})
    if not seats or seats[0]["type"] != "human":
        raise IllegalAction("invalid_seats", "seat 0 is the creator's: a human seat", seat=0)
    return seats


@transaction.atomic
def match_create(*, owner, ruleset: str, options: Mapping | None, seats: Sequence | None) -> Match:
    """A new match with `owner` in seat 0; dealt at once when no other human seat is open."""
    engine = get_ruleset(ruleset)
    raw = dict(options or {})
    if seats is not None and "players" not in raw:
        raw["players"] = len(seats)
    parsed = engine.parse_options(raw)
    seat_specs = _parse_seats(seats, parsed.get("players"))
    if len(seat_specs) != parsed.get("players", len(seat_specs)):
        raise IllegalAction("invalid_seats", "one seat per player",
                            players=parsed["players"], seats=len(seat_specs))
    match = Match.objects.create(
        ruleset=ruleset, options=parsed, owner=owner, invite_code=_invite_code(),
        bot_seats=[i for i, spec in enumerate(seat_specs) if spec["type"] == "bot"],
    )
    Seat.objects.bulk_create(
        Seat(match=match, index=i, kind=spec["type"], bot_level=spec.get("level", ""),
             user=owner if i == 0 else None)
        for i, spec in enumerate(seat_specs)
    )
    progress = _Progress.load(match)
    progress.event({"type": "match_created", "seats": [s["type"] for s in seat_specs]})
    _start_if_full(progress)
    progress.save()
    return match


def _start_if_full(progress: _Progress) -> None:
    if any(s.kind == Seat.Kind.HUMAN and s.user_id is None for s in progress.seats):
        return
    match = progress.match
    humans = [s.kind == Seat.Kind.HUMAN for s in progress.seats]
    progress.state = progress.engine.new_match(match.options, humans)
    for seat, score in zip(progress.seats, progress.engine.scores(progress.state), strict=True):
        seat.score = score  # the starting score, where the ruleset has one
    Seat.objects.bulk_update(progress.seats, ["score"])
    match.status = Match.Status.ACTIVE
    progress.event({"type": "match_started"})
    progress.advance()


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
    open_seats = [s for s in progress.seats if s.kind == Seat.Kind.HUMAN and s.user_id is None]
    if match.status != Match.Status.WAITING or not open_seats:
        raise MatchFull()
    seat = open_seats[0]
    seat.user = user
    seat.save(update_fields=["user"])
    progress.event({"type": "player_joined", "seat": seat.index})
    _start_if_full(progress)
    progress.save()
    return match


@transaction.atomic
def match_leave(*, user, match_id: int) -> Match:
    """Leaving keeps the match exactly as it is, to be resumed later; only a guest leaving a match
    that has not started gives the seat back."""
    match = Match.objects.select_for_update().get(pk=match_id)
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

    match: Match
    seat: int  # the seat that acted
    seats: list[SeatInfo]  # as they stand after the action (scores move when a round ends)
    state: Any
    events: list[Event]  # the events this action caused, in order
    bot_to_act: bool  # a bot's turn was queued (run already, when eager)


def _seat_of(player, seats: list[SeatInfo], claimed: int | None) -> int:
    mine = next((s.index for s in seats if s.user_id == player.pk), None)
    if mine is None or claimed not in (None, mine):
        raise PermissionDenied("you can act only for your own seat")
    return mine


def action_submit(
    *, match_id: int, seat: int | None, action: Action, expected_version: int, actor: str,
    player=None,
) -> Submitted:
    """Apply one action of `seat` and everything it sets off. A person acting (`player`) acts
    for the seat they hold, found under the lock (403 if they hold none, or `seat` names
    another); without `player` the caller has checked `seat`. Refusals (Http404,
    PermissionDenied, IllegalAction, StaleVersion) leave the match exactly as it was."""
    with transaction.atomic():
        match, seats = match_with_seats(match_id, lock=True)
        if player is not None:
            seat = _seat_of(player, seats, seat)
        if match.version != expected_version:
            raise StaleVersion(expected=expected_version, current=match.version)
        if match.status == Match.Status.WAITING:
            raise IllegalAction("match_not_started", "open seats are still waiting for players")
        if match.status == Match.Status.FINISHED:
            raise IllegalAction("match_over", "the match is over")
        progress = _Progress.load(match)
        progress.apply(seat, action, actor)
        progress.advance()
        progress.save()
    if progress.loaded_seats is not None:  # a round ended: the seats' scores moved
        seats = [SeatInfo.of(s) for s in progress.loaded_seats]
    return Submitted(match, seat, seats, progress.state, progress.events, progress.bot_to_act)
