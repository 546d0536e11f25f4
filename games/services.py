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
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from games import hooks, sql
from games.engine.actions import Action
from games.engine.errors import IllegalAction
from games.engine.registry import get_ruleset
from games.engine.ruleset import Ruleset
from games.errors import Conflict, Forbidden, MatchFull, NotFound, StaleVersion
from games.models import BOT_LEVELS, Event, Match, Move, Round, Seat
from games.selectors import MatchRead
from games.sql import SeatInfo
from scoring.services import round_settle

DEFAULT_BOT_LEVEL = "normal"
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

    def apply(self, seat: int, action: Action, actor: str,
              idempotency_key: str | None = None) -> None:
        self.state, events = self.engine.apply(self.state, seat, action)
        self.match.round_moves += 1
        self.moves.append(
            Move(match=self.match, round_id=self.match.current_round_id,
                 seq=self.match.round_moves, seat=seat, action=action.to_dict(), actor=actor,
                 version=self.match.version, idempotency_key=idempotency_key or "")
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
            elif engine.table(self.state).needs_round:
                self._round_start()
            elif (seat := engine.to_act(self.state)) is not None and (
                forced := engine.forced_action(self.state)
            ) is not None:
                self.apply(seat, forced, Move.Actor.AUTO)
            else:
                break
        if engine.table(self.state).match_over and self.match.status != Match.Status.FINISHED:
            self.set_status(Match.Status.FINISHED)
            self.match.standings = engine.standings(self.state)
            self.event({"type": "match_finished", "standings": self.match.standings})

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
    def bot_to_act(self) -> bool:
        match = self.match
        return match.status == Match.Status.ACTIVE and match.to_act in match.bot_seats

    def save(self) -> None:
        match = self.match
        if self.state is not None:
            match.snapshot = self.engine.to_json(self.state)
            match.to_act = self.engine.to_act(self.state)
        sql.write(match, PROGRESS_FIELDS, self.moves, self.events)
        if self.bot_to_act:
            match_id, version = match.pk, match.version
            # robust: a failing bot must not turn the committed human action into an error.
            transaction.on_commit(lambda: hooks.announce_bot_turn(match_id, version),
                                  robust=True)


def _seat_specs(seats: Sequence[Mapping] | None, players: int) -> list[dict]:
    """Seats as asked ({type: human} or {type: bot, level}), or the creator and normal bots;
    seat 0 is the creator's."""
    if seats is None:
        seats = [{"type": "human"}] + [{"type": "bot"}] * (players - 1)
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
def match_create(*, owner, ruleset: str, options: Mapping | None, seats: Sequence | None) -> Match:
    """A new match with `owner` in seat 0; dealt at once when no other human seat is open."""
    engine = get_ruleset(ruleset)
    raw = dict(options or {})
    if seats is not None and "players" not in raw:
        raw["players"] = len(seats)
    parsed = engine.parse_options(raw)
    seat_specs = _seat_specs(seats, parsed["players"])
    match = Match.objects.create(
        ruleset=ruleset, options=parsed, owner=owner, invite_code=_invite_code(),
        bot_seats=[i for i, spec in enumerate(seat_specs) if spec["type"] == "bot"],
    )
    Seat.objects.bulk_create(
        Seat(match=match, index=i, kind=spec["type"], bot_level=spec.get("level", ""),
             user=owner if i == 0 else None, match_status=match.status)
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
    scores = progress.engine.table(progress.state).scores
    for seat in progress.seats:
        seat.score = scores[seat.index]  # the starting score, where the ruleset has one
    Seat.objects.bulk_update(progress.seats, ["score"])
    progress.set_status(Match.Status.ACTIVE)
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
    events: list[Event]  # the events this action caused, in order
    bot_to_act: bool  # a bot's turn was announced (played already, when eager)


def _seat_of(player, seats: list[SeatInfo], claimed: int | None) -> int:
    mine = next((s.index for s in seats if s.user_id == player.pk), None)
    if mine is None or claimed not in (None, mine):
        raise Forbidden("you can act only for your own seat")
    return mine


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
    player=None, idempotency_key: str | None = None,
) -> Submitted | Replayed:
    """Apply one action of `seat` and everything it sets off. A person acting (`player`) acts
    for the seat they hold, found under the lock (Forbidden if they hold none, or `seat` names
    another); without `player` the caller has checked `seat`. An `idempotency_key` this seat
    used for an accepted action already gives `Replayed`, whatever the version: the retry of an
    act whose answer was lost. Refusals (NotFound, Forbidden, IllegalAction, StaleVersion,
    Conflict) leave the match exactly as it was."""
    with transaction.atomic():
        row = sql.match_row(match_id, lock=True)
        if row is None:
            raise NotFound()
        match, seats = row.match, row.seats
        if player is not None:
            seat = _seat_of(player, seats, seat)
        if idempotency_key is not None and (
                replayed := _replayed(match_id, seat, idempotency_key, action)) is not None:
            return replayed
        if match.version != expected_version:
            raise StaleVersion(expected=expected_version, current=match.version)
        if match.status == Match.Status.WAITING:
            raise IllegalAction("match_not_started", "open seats are still waiting for players")
        if match.status == Match.Status.FINISHED:
            raise IllegalAction("match_over", "the match is over")
        progress = _Progress.load(match)
        progress.apply(seat, action, actor, idempotency_key)
        progress.advance()
        progress.save()
    if progress.loaded_seats is not None:  # a round ended: the seats' scores moved
        seats = [SeatInfo.of(s) for s in progress.loaded_seats]
    number, hashed = row.round_number, row.seed_hash
    if progress.round is not None:
        number, hashed = progress.round.number, progress.round.seed_hash
    read = MatchRead(match, number, hashed, seats, seats[seat], None)
    return Submitted(read, progress.state, progress.events, progress.bot_to_act)
