"""Read paths: rows and values, no response shaping (games.presenters does that). Nothing here
writes, and nothing on a player's path replays the log: the snapshot keeps each read's cost
independent of the match's length."""

from dataclasses import dataclass

from django.db.models import Prefetch

from games import archive, sql
from games.engine.actions import Action, action_from_dict
from games.engine.registry import get_ruleset
from games.engine.replay import replay
from games.errors import NotFound
from games.models import Event, Match, Move, Round, Seat, Table
from games.sql import EventRow, SeatInfo

RECENT_EVENTS = 20
MAX_EVENTS = 500


@dataclass(frozen=True)
class MatchRead:
    """One read of a match for one person: the row, its round and seats, the person's seat (None:
    staff looking on) and the events asked for."""

    match: Match
    round_number: int | None
    seed_hash: str | None
    seats: list[SeatInfo]
    mine: SeatInfo | None
    events: list[EventRow] | None
    rematch: Match | None = None  # a finished match's, with its seats


# What a finished match's reader is told of its rematch (presenters.rematch_summary).
REMATCH_FIELDS = ("id", "status", "bots_fill_at", "owner_id", "rematch_of_id")
REMATCH_SEAT_FIELDS = ("id", "match_id", "index", "kind", "user_id", "reserved_for_id")


def _rematch_seats(lookup: str) -> Prefetch:
    return Prefetch(lookup, Seat.objects.only(*REMATCH_SEAT_FIELDS).order_by("index"))


def match_for(user, match_id: int, *, events_after: int | None = None,
              events: int = 0) -> MatchRead:
    """The match as `user` may read it, in one query; NotFound for anyone neither seated nor
    staff. With `events` > 0, at most that many events after `events_after` (None: the latest
    RECENT_EVENTS) come with it."""
    row = sql.match_row(match_id, events_after=events_after, recent=RECENT_EVENTS, limit=events)
    if row is None:
        raise NotFound()
    mine = next((s for s in row.seats if s.user_id == user.pk), None)
    if mine is None and not user.is_staff:
        raise NotFound()
    if row.events is not None and row.match.compacted_at is not None:
        after = row.match.last_event_seq - RECENT_EVENTS if events_after is None else events_after
        row = row._replace(events=[e for e in archive.events(match_id) if e.seq > after][:events])
    rematch = None
    if row.match.status == Match.Status.FINISHED:
        rematch = (Match.objects.filter(rematch_of=match_id).only(*REMATCH_FIELDS)
                   .prefetch_related(_rematch_seats("seats")).first())
    return MatchRead(row.match, row.round_number, row.seed_hash, row.seats, mine, row.events,
                     rematch)


def matches_of(user, status: str | None, before: int | None, limit: int) -> list[Match]:
    """`user`'s matches, newest first, `limit` at most, with ids below `before` (a keyset page:
    the cost of a page does not grow with the number of matches). Seats and rematches come
    prefetched; the snapshot is not read."""
    seats = Seat.objects.filter(user=user)
    if status:
        seats = seats.filter(match_status=status)
    if before is not None:
        seats = seats.filter(match_id__lt=before)
    ids = list(seats.order_by("-match_id").values_list("match_id", flat=True)[:limit])
    seats = Prefetch("seats", Seat.objects.select_related("user").order_by("index"))
    found = (Match.objects.filter(pk__in=ids).defer("snapshot", "options", "standings")
             .prefetch_related(seats, Prefetch("rematch", Match.objects.only(*REMATCH_FIELDS)),
                               _rematch_seats("rematch__seats"))
             .order_by("-pk"))
    return list(found)


def rounds_of(match: Match) -> list[Round]:
    return list(match.rounds.order_by("number").prefetch_related("score_entries"))


def round_of(match: Match, number: int) -> Round:
    rnd = Round.objects.filter(match=match, number=number).prefetch_related(
        "score_entries").first()
    if rnd is None:
        raise NotFound("no such round")
    return rnd


def match_moves(match: Match) -> list[tuple[int, int, Action, Move]]:
    """The log in order: (round number, seat, action, row), from its archive once compacted
    (the rows are then unsaved Moves, as the table held them)."""
    if match.compacted_at is not None:
        rows = archive.moves(match.pk)
    else:
        rows = [(m.round.number, m) for m in Move.objects.filter(match=match)
                .select_related("round").order_by("round__number", "seq")]
    return [(number, m.seat, action_from_dict(m.action), m) for number, m in rows]


def match_events(match: Match) -> list[EventRow]:
    """Every event in order, from its archive once compacted."""
    if match.compacted_at is not None:
        return archive.events(match.pk)
    rows = Event.objects.filter(match=match).order_by("seq")
    return [EventRow(*row) for row in rows.values_list("seq", "round_number", "version", "data")]


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


def round_events(match_id: int, round_number: int) -> list[dict]:
    """The events of a match's round, in order, as stored: what a bot reads of the round (the
    state keeps only its latest few)."""
    return list(Event.objects.filter(match_id=match_id, round_number=round_number)
                .order_by("seq").values_list("data", flat=True))


def tables() -> list[Table]:
    """The tables clients may pick, in display order."""
    return list(Table.objects.filter(active=True).order_by("position", "name"))


def match_notices(match_ids: list[int]) -> list[dict]:
    """Where these matches stand, as the live notices say it (without the events' types)."""
    rows = Match.objects.filter(pk__in=match_ids).values_list("pk", "version", "status", "to_act")
    return [{"match": pk, "version": version, "status": status, "to_act": to_act, "types": []}
            for pk, version, status, to_act in rows]


def seat_notices(user_ids: list[int]) -> list[dict]:
    """The waiting and active matches these people sit in, each as the notice of their seat
    there (`user`: whose)."""
    rows = (Seat.objects.filter(user_id__in=user_ids,
                                match_status__in=(Match.Status.WAITING, Match.Status.ACTIVE))
            .values_list("user_id", "index", "match_id", "match__version", "match__status",
                         "match__to_act"))
    return [{"user": user, "seat": seat, "match": match, "version": version, "status": status,
             "to_act": to_act, "types": []}
            for user, seat, match, version, status, to_act in rows]
