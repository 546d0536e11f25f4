"""Read paths: what a player (or staff) may see of a match. Nothing here writes, and nothing here
replays the log: the snapshot keeps each read's cost independent of the match's length."""

import json
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import Http404

from games.engine.actions import Action, action_from_dict
from games.engine.registry import get_ruleset
from games.engine.replay import replay
from games.models import Event, Match, Move, Round, Seat
from scoring.models import ScoreEntry

RECENT_EVENTS = 20
MAX_EVENTS = 500


class SeatInfo(NamedTuple):
    """A seat as the read paths show it; read as plain values, the hot paths skip the models."""

    index: int
    kind: str
    bot_level: str
    user_id: int | None
    username: str | None
    score: int
    eliminated: bool

    @classmethod
    def of(cls, seat: Seat) -> "SeatInfo":
        return cls(seat.index, seat.kind, seat.bot_level, seat.user_id,
                   seat.user.username if seat.user_id else None, seat.score, seat.eliminated)


# What the hot paths read of the match row, in the model's order as Model.from_db wants it;
# created_at and updated_at stay deferred.
MATCH_COLUMNS = tuple(f.attname for f in Match._meta.concrete_fields
                      if f.attname not in ("created_at", "updated_at"))
JSON_COLUMNS = frozenset({"options", "snapshot", "bot_seats", "standings"})
# The seats (SeatInfo's fields) as one JSON array of arrays, per database.
SEAT_ROWS = {
    "postgresql": "(SELECT json_agg(json_build_array({columns}))::text FROM {seats})",
    "sqlite": "(SELECT json_group_array(json_array({columns})) FROM {seats})",
}


def _match_sql(db, lock: bool) -> str:
    seats = (f"games_seat s LEFT JOIN {get_user_model()._meta.db_table} u ON u.id = s.user_id"
             " WHERE s.match_id = m.id")
    seat_rows = SEAT_ROWS[db.vendor].format(
        columns='s."index", s.kind, s.bot_level, s.user_id, u.username, s.score, s.eliminated',
        seats=seats)
    lock_clause = " FOR UPDATE OF m" if lock and db.features.has_select_for_update else ""
    return (f"SELECT {', '.join(f'm.{c}' for c in MATCH_COLUMNS)}, r.number, r.seed_hash,"
            f" {seat_rows} FROM games_match m"
            f" LEFT JOIN games_round r ON r.id = m.current_round_id WHERE m.id = %s{lock_clause}")


def match_with_seats(match_id, lock: bool = False) -> tuple[Match, list[SeatInfo]]:
    """The match row with its current round's number and seed hash and its seats, in one
    written-out query (the ORM's took longer to compile than a whole act). `lock`: locked until
    the transaction ends, the seats read under the same lock. 404 if there is no such match."""
    db = transaction.get_connection()
    with db.cursor() as cursor:
        cursor.execute(_match_sql(db, lock), [match_id])
        row = cursor.fetchone()
    if row is None:
        raise Http404("no such match")
    *values, number, seed_hash, seat_rows = row
    values = [json.loads(v) if c in JSON_COLUMNS and isinstance(v, str) else v
              for c, v in zip(MATCH_COLUMNS, values, strict=True)]
    match = Match.from_db(db.alias, MATCH_COLUMNS, values)
    if match.current_round_id is not None:
        match.current_round = Round.from_db(  # the fields in the model's order
            db.alias, ("id", "match_id", "number", "seed_hash"),
            (match.current_round_id, match.pk, number, seed_hash))
    seats = sorted(SeatInfo(i, kind, level, user, name, score, bool(out))
                   for i, kind, level, user, name, score, out in json.loads(seat_rows or "[]"))
    return match, seats


def match_for(user, match_id) -> tuple[Match, SeatInfo | None]:
    """The match and the caller's seat in it; 404 for anyone who is neither seated nor staff."""
    match, seats = match_with_seats(match_id)
    match.seat_list = seats
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None and not user.is_staff:
        raise Http404("no such match")
    return match, mine


def seat_summary(seat: SeatInfo, you: SeatInfo | None) -> dict:
    return {
        "seat": seat.index,
        "kind": seat.kind,
        "level": seat.bot_level or None,
        "player": seat.username,
        "open": seat.kind == Seat.Kind.HUMAN and seat.user_id is None,
        "you": you is not None and seat.index == you.index,
        "score": seat.score,
        "eliminated": seat.eliminated,
    }


def event_dicts(rows) -> list[dict]:
    return [{"seq": e.seq, "round": e.round_number, "version": e.version, **e.data} for e in rows]


def events_since(match: Match, since: int, limit: int | None = MAX_EVENTS) -> list[dict]:
    return event_dicts(Event.objects.filter(match=match, seq__gt=since).order_by("seq")[:limit])


def match_view_for(match: Match, seat: SeatInfo | None, since: int | None = None, *,
                   state=None, events: list[dict] | None = None) -> dict:
    """One seat's view (None: an onlooker such as staff): the engine's view of the snapshot plus
    the match's facts, the seat's legal actions and the events after `since`. A caller that
    holds the decoded state and the events already (the act path) passes them in."""
    engine = get_ruleset(match.ruleset)
    index = None if seat is None else seat.index
    if state is None and match.snapshot is not None:
        state = engine.from_json(match.snapshot)
    your_turn = (
        state is not None and index is not None and match.status == Match.Status.ACTIVE
        and match.to_act == index
    )
    legal = engine.legal_actions(state, index) if your_turn else []
    if since is None:
        since = max(0, match.last_event_seq - RECENT_EVENTS)
    current = match.current_round
    return {
        "id": match.pk,
        "ruleset": match.ruleset,
        "options": match.options,
        "status": match.status,
        "version": match.version,
        "invite_code": match.invite_code if match.status == Match.Status.WAITING else None,
        "you": index,
        "to_act": match.to_act,
        "your_turn": your_turn,
        "round": {"number": current.number, "seed_hash": current.seed_hash} if current else None,
        "seats": [seat_summary(s, seat) for s in match.seat_list],
        "state": None if state is None else engine.view(state, index),
        "legal_actions": [a.to_dict() for a in legal],
        "events": events if events is not None else events_since(match, since),
        "last_event_seq": match.last_event_seq,
        "standings": match.standings,
    }


def matches_of(user, status: str | None = None):
    found = Match.objects.filter(seats__user=user).order_by("-updated_at")
    if status:
        found = found.filter(status=status)
    return found.prefetch_related("seats__user")


def match_summary(match: Match, user) -> dict:
    seats = sorted(map(SeatInfo.of, match.seats.all()), key=lambda s: s.index)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    return {
        "id": match.pk,
        "ruleset": match.ruleset,
        "status": match.status,
        "version": match.version,
        "round": match.round_number,
        "you": None if mine is None else mine.index,
        "to_act": match.to_act,
        "your_turn": mine is not None and match.status == Match.Status.ACTIVE
        and match.to_act == mine.index,
        "seats": [seat_summary(s, mine) for s in seats],
        "created_at": match.created_at,
        "updated_at": match.updated_at,
    }


def round_summary(rnd: Round, entries: list[ScoreEntry]) -> dict:
    """A round's public record; the seed, every hand and the settlement only once it is over."""
    over = rnd.is_over
    return {
        "number": rnd.number,
        "seed_hash": rnd.seed_hash,
        "over": over,
        "started_at": rnd.started_at,
        "ended_at": rnd.ended_at,
        "seed": rnd.seed if over else None,
        "seating": rnd.seating,
        "deltas": [e.delta for e in entries] if over else None,
    }


def round_detail(rnd: Round) -> dict:
    entries = list(rnd.score_entries.order_by("seat")) if rnd.is_over else []
    data = round_summary(rnd, entries)
    if rnd.is_over:
        data["settlement"] = [
            {"seat": e.seat, "delta": e.delta, "breakdown": e.breakdown} for e in entries
        ]
        data["result"] = rnd.result
        data["hands"] = (rnd.final_view or {}).get("hands")
        data["bottom"] = (rnd.final_view or {}).get("bottom")
    return data


def rounds_of(match: Match) -> list[dict]:
    rounds = match.rounds.order_by("number").prefetch_related("score_entries")
    return [
        round_summary(r, sorted(r.score_entries.all(), key=lambda e: e.seat)) for r in rounds
    ]


def round_of(match: Match, number: int) -> dict:
    rnd = Round.objects.filter(match=match, number=number).first()
    if rnd is None:
        raise Http404("no such round")
    return round_detail(rnd)


def match_moves(match: Match) -> list[tuple[int, int, Action, Move]]:
    """The log in order: (round number, seat, action, row)."""
    rows = Move.objects.filter(match=match).select_related("round").order_by("round__number", "seq")
    return [(m.round.number, m.seat, action_from_dict(m.action), m) for m in rows]


def match_replay(match: Match, upto: int | None = None):
    """The engine state rebuilt from options, round seeds and the first `upto` moves (all by
    default): the log is the truth, the snapshot only a cache of it."""
    engine = get_ruleset(match.ruleset)
    seats = Seat.objects.filter(match=match).order_by("index")
    humans = [s.kind == Seat.Kind.HUMAN for s in seats]
    seeds = list(match.rounds.order_by("number").values_list("seed", flat=True))
    moves = match_moves(match)
    if upto is not None:
        moves = moves[:upto]
        # Stop at the end of the last replayed move's round instead of dealing the next one.
        seeds = seeds[:moves[-1][0]] if moves else seeds[:1]
    return replay(engine, match.options, humans, seeds, [m[:3] for m in moves])


def match_export(match: Match) -> dict:
    """Everything stored about a match, for staff: options, seats, rounds with their seeds and
    settlement, every move and event."""
    rounds = match.rounds.order_by("number").prefetch_related("score_entries")
    return {
        "id": match.pk,
        "ruleset": match.ruleset,
        "options": match.options,
        "status": match.status,
        "owner": match.owner.username,
        "version": match.version,
        "created_at": match.created_at.isoformat(),
        "standings": match.standings,
        "seats": [
            {"seat": s.index, "kind": s.kind, "level": s.bot_level or None,
             "player": s.user.username if s.user_id else None, "score": s.score,
             "eliminated": s.eliminated}
            for s in match.seats.select_related("user").order_by("index")
        ],
        "rounds": [
            {"number": r.number, "seed": r.seed, "seed_hash": r.seed_hash, "seating": r.seating,
             "started_at": r.started_at.isoformat(),
             "ended_at": r.ended_at.isoformat() if r.ended_at else None, "result": r.result,
             "settlement": [{"seat": e.seat, "delta": e.delta, "breakdown": e.breakdown}
                            for e in sorted(r.score_entries.all(), key=lambda e: e.seat)]}
            for r in rounds
        ],
        "moves": [
            {"round": number, "seq": row.seq, "seat": seat, "action": row.action,
             "actor": row.actor, "version": row.version, "at": row.created_at.isoformat()}
            for number, seat, _, row in match_moves(match)
        ],
        "events": events_since(match, 0, limit=None),
        "snapshot": match.snapshot,
    }
