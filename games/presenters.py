"""Response shapes: the dicts the API (and the admin's export) send, built from what the selectors
and services return. Every response to a player is built from that player's view."""

from collections.abc import Mapping

from django.utils import timezone

from games.engine.actions import Action
from games.engine.registry import get_ruleset
from games.engine.ruleset import Ruleset
from games.models import Match, Round, Seat, Table, options_hash
from games.selectors import MatchRead, match_events, match_moves
from games.sql import SeatInfo


def ruleset_info(ruleset: Ruleset) -> dict:
    info = ruleset.info
    return {"name": info.name, "title": dict(info.title), "players": list(info.players),
            "options": info.options.schema(), "labels": option_labels(ruleset),
            "how_to_play": dict(info.how_to_play)}


def _option_label(name: str, field) -> dict:
    return dict(field.label) or {"en": name, "zh": name}


def _value_labels(field) -> Mapping:
    return getattr(field.spec, "labels", {})


def option_labels(ruleset: Ruleset) -> dict:
    """Every option's label and its choices' labels ({"en", "zh"}), for people: a client names
    the options with them (a choice without one is named by its value)."""
    return {name: {"label": _option_label(name, field),
                   "values": {str(v): dict(text) for v, text in _value_labels(field).items()}}
            for name, field in ruleset.info.options.fields.items()}


def seat_summary(seat: SeatInfo, you: SeatInfo | None, autoplay: dict) -> dict:
    return {
        "seat": seat.index,
        "kind": seat.kind,
        "level": seat.bot_level or None,
        "player": seat.name,
        "open": seat.kind == Seat.Kind.HUMAN and seat.user_id is None,
        "you": you is not None and seat.index == you.index,
        "score": seat.score,
        "eliminated": seat.eliminated,
        "autoplay": autoplay.get(str(seat.index)),
    }


def clock(match: Match) -> dict | None:
    """The turn clock: the seconds per decision and, while a person is to act, their deadline
    with the server's time and the seconds left (a client's own clock may be off)."""
    if not match.turn_seconds:
        return None
    now = timezone.now()
    deadline = match.deadline_at
    return {"turn_seconds": match.turn_seconds, "server_time": now.isoformat(),
            "deadline": None if deadline is None else deadline.isoformat(),
            "seconds_left": None if deadline is None else
            round(max(0.0, (deadline - now).total_seconds()), 1)}


def event_dicts(rows) -> list[dict]:
    """Events as clients see them, from EventRow values or Event rows."""
    return [{"seq": e.seq, "round": e.round_number, "version": e.version, **e.data} for e in rows]


def rematch_summary(rematch: Match | None, reader_id: int | None) -> dict | None:
    """A finished match's rematch as its people read it: who asked (a seat), each person's
    answer (accepted: seated; pending: the seat is kept for them; bot: a bot took it, declined or
    too late) and the reader's own."""
    if rematch is None:
        return None
    people = [s for s in rematch.seats.all() if s.user_id or s.reserved_for_id]
    answers = {s.index: "accepted" if s.user_id else
               "pending" if s.kind == Seat.Kind.HUMAN else "bot" for s in people}
    yours = next((answers[s.index] for s in people
                  if reader_id is not None and reader_id in (s.user_id, s.reserved_for_id)), None)
    return {"id": rematch.pk, "status": rematch.status,
            "bots_fill_at": rematch.bots_fill_at if rematch.status == Match.Status.WAITING
            else None,
            "asked_by": next(s.index for s in people if s.user_id == rematch.owner_id),
            "seats": [{"seat": seat, "answer": answer} for seat, answer in answers.items()],
            "yours": yours}


def match_facts(match: Match) -> dict:
    """What every answer about one match starts with."""
    return {"id": match.pk, "ruleset": match.ruleset, "options": match.options,
            "options_hash": match.options_hash, "status": match.status}


def match_view(read: MatchRead, state=None, legal: list[Action] | None = None) -> dict:
    """The reader's view: the engine's view of the snapshot for their seat (None: an onlooker),
    the match's facts, their legal actions and the events read with it. A caller holding the
    decoded state (and the seat's legal actions) passes them in."""
    match = read.match
    engine = get_ruleset(match.ruleset)
    index = None if read.mine is None else read.mine.index
    if state is None and match.snapshot is not None:
        state = engine.from_json(match.snapshot)
    your_turn = (state is not None and index is not None
                 and match.status == Match.Status.ACTIVE and match.to_act == index)
    if legal is None or not your_turn:
        legal = engine.legal_actions(state, index) if your_turn else []
    return {
        **match_facts(match),
        "version": match.version,
        # A spectator may not take a seat by the back door.
        "invite_code": match.invite_code if match.status == Match.Status.WAITING
        and read.mine is not None else None,
        "bots_fill_at": match.bots_fill_at if match.status == Match.Status.WAITING else None,
        "you": index,
        "to_act": match.to_act,
        "your_turn": your_turn,
        "round": (None if read.round_number is None else
                  {"number": read.round_number, "seed_hash": read.seed_hash}),
        "seats": [seat_summary(s, read.mine, match.autoplay) for s in read.seats],
        "clock": clock(match),
        "server_pace_ms": match.server_pace_ms,
        "state": None if state is None else engine.view(state, index, legal),
        "legal_actions": [a.to_dict() for a in legal],
        "events": event_dicts(read.events or []),
        "last_event_seq": match.last_event_seq,
        "standings": match.standings,
        "rematch": rematch_summary(read.rematch, None if read.mine is None else read.mine.user_id),
        "watchable": match.watchable,
        "spectators": read.spectators,
    }


def options_described(ruleset: Ruleset, options: Mapping) -> list[dict]:
    """Each option as people read it, from the ruleset's spec: its label and its value's, in
    English and Chinese (a number is its own label)."""
    described = []
    for name, spec in ruleset.info.options.fields.items():
        if name in options:
            value = options[name]
            text = _value_labels(spec).get(value)
            described.append({
                "option": name,
                "label": _option_label(name, spec),
                "value": value,
                "text": dict(text) if text else {"en": str(value), "zh": str(value)},
            })
    return described


def table_view(table: Table) -> dict:
    """A table as clients list it: what a match from it plays with, spelled out."""
    engine = get_ruleset(table.ruleset)
    options = engine.parse_options(table.options)
    return {
        "slug": table.slug,
        "name": table.name,
        "ruleset": table.ruleset,
        "ruleset_title": dict(engine.info.title),
        "players": options["players"],
        "options": options,
        "options_hash": options_hash(options),
        "options_described": options_described(engine, options),
        "allow_override": table.allow_override,
        "bot_levels": [table.bot_level(i) for i in range(1, options["players"])],
        "bots_after": table.bots_after,
        "turn_seconds": table.turn_seconds,
        "server_pace_ms": table.pace_ms(),
        "watchable": table.watchable,
    }


def match_summary(match: Match, user) -> dict:
    seats = sorted(map(SeatInfo.of, match.seats.all()))
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
        "seats": [seat_summary(s, mine, match.autoplay) for s in seats],
        "rematch": rematch_summary(getattr(match, "rematch", None), user.pk),
        "created_at": match.created_at,
        "updated_at": match.updated_at,
    }


def watch_summary(match: Match) -> dict:
    """A match of the watch list (selectors.watch_list annotates `people` and `watching`)."""
    seats = sorted(map(SeatInfo.of, match.seats.all()))
    return {
        "id": match.pk,
        "ruleset": match.ruleset,
        "table": match.table.slug if match.table_id else None,
        "round": match.round_number,
        "people": match.people,
        "spectators": match.watching,
        "seats": [seat_summary(s, None, match.autoplay) for s in seats],
        "created_at": match.created_at,
    }


def round_summary(rnd: Round) -> dict:
    """A round's public record; the seed, every hand and the settlement only once it is over."""
    over = rnd.is_over
    entries = sorted(rnd.score_entries.all(), key=lambda e: e.seat) if over else []
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
    data = round_summary(rnd)
    if rnd.is_over:
        data["settlement"] = [
            {"seat": e.seat, "delta": e.delta, "breakdown": e.breakdown}
            for e in sorted(rnd.score_entries.all(), key=lambda e: e.seat)
        ]
        data["result"] = rnd.result
        data["scores"] = (rnd.final_view or {}).get("scores")
        data["hands"] = (rnd.final_view or {}).get("hands")
        data["bottom"] = (rnd.final_view or {}).get("bottom")
    return data


def match_replay(match: Match, rounds: list[Round], user) -> dict:
    """A finished match as its replay starts: the seats, the standings and each round played
    to its end, its seed revealed (the deal can be checked against `seed_hash`)."""
    seats = sorted(SeatInfo.of(s) for s in match.seats.select_related("user"))
    mine = next((s for s in seats if s.user_id == user.pk), None)
    return {
        **match_facts(match),
        "watchable": match.watchable,
        "you": None if mine is None else mine.index,
        "seats": [seat_summary(s, mine, {}) for s in seats],
        "standings": match.standings,
        "rounds": [round_summary(r) for r in rounds],
    }


def round_replay(replay) -> dict:
    """One round of a replay (selectors.RoundReplay): its record, the deal with every hand
    open, then each move with its events and every hand after it."""
    return {
        **round_detail(replay.round),
        "start": replay.start,
        "steps": [{"seq": step.move.seq, "seat": step.move.seat, "actor": step.move.actor,
                   "reason": step.move.reason or None, "action": step.move.action,
                   "events": step.events, "view": step.view} for step in replay.steps],
    }


def match_export(match: Match) -> dict:
    """Everything stored about a match, for staff: options, seats, rounds with their seeds and
    settlement, every move and event."""
    rounds = match.rounds.order_by("number").prefetch_related("score_entries")
    return {
        "id": match.pk,
        "ruleset": match.ruleset,
        "table": match.table.slug if match.table_id else None,
        "options": match.options,
        "options_hash": match.options_hash,
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
        "events": event_dicts(match_events(match)),
        "snapshot": match.snapshot,
    }
