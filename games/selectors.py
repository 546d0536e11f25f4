"""Read paths: rows and values, no response shaping (games.presenters does that). Nothing here
writes, and nothing on a player's path replays the log: the snapshot keeps each read's cost
independent of the match's length."""

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Prefetch, Q
from django.utils import timezone

from games import archive, sql
from games.engine.actions import Action, action_from_dict
from games.engine.registry import get_ruleset
from games.engine.replay import replay
from games.errors import Conflict, NotFound
from games.models import Event, Match, Move, Round, Seat, Table
from games.sql import EventRow, SeatInfo

RECENT_EVENTS = 20
MAX_EVENTS = 500
SPECTATOR_HEARTBEATS = 3


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
    spectators: int | None = None  # how many watch now (None: not counted for this read)


# What a finished match's reader is told of its rematch (presenters.rematch_summary).
REMATCH_FIELDS = ("id", "status", "bots_fill_at", "owner_id", "rematch_of_id")
REMATCH_SEAT_FIELDS = ("id", "match_id", "index", "kind", "user_id", "reserved_for_id")


def _rematch_seats(lookup: str) -> Prefetch:
    return Prefetch(lookup, Seat.objects.only(*REMATCH_SEAT_FIELDS).order_by("index"))


def spectators_since() -> datetime:
    """A spectator seen since this time still watches (a stream renews its row at each
    heartbeat: one that died unannounced is counted for a few heartbeats more)."""
    return timezone.now() - timedelta(seconds=SPECTATOR_HEARTBEATS
                                      * settings.STREAM_HEARTBEAT_SECONDS)


def may_watch(user, match: Match) -> bool:
    """Anyone may watch a watchable match; staff any match. (Its players always read it.)"""
    return match.watchable or user.is_staff


def match_for(user, match_id: int, *, events_after: int | None = None,
              events: int = 0) -> MatchRead:
    """The match as `user` may read it, in one query, with how many watch it; NotFound for
    anyone not seated who may not watch it. With `events` > 0, at most that many events after
    `events_after` (None: the latest RECENT_EVENTS) come with it."""
    return for_reader(match_of(match_id, events_after=events_after, events=events), user)


def match_of(match_id: int, *, events_after: int | None = None, events: int = 0,
             row: sql.MatchRow | None = None) -> MatchRead:
    """The match as read before anyone's seat is looked at (`mine` None), for match_for's
    readers: one read serves each of them (for_reader). `row`: row_of's, read by the caller
    already with the same arguments."""
    if row is None:
        row = row_of(match_id, events_after=events_after, events=events)
    if row is None:
        raise NotFound()
    if row.events is not None and row.match.compacted_at is not None:
        after = row.match.last_event_seq - RECENT_EVENTS if events_after is None else events_after
        row = row._replace(events=[e for e in archive.events(match_id) if e.seq > after][:events])
    rematch = None
    if row.match.status == Match.Status.FINISHED:
        rematch = (Match.objects.filter(rematch_of=match_id).only(*REMATCH_FIELDS)
                   .prefetch_related(_rematch_seats("seats")).first())
    return MatchRead(row.match, row.round_number, row.seed_hash, row.seats, None, row.events,
                     rematch, row.spectators)


def row_of(match_id: int, *, events_after: int | None = None, events: int = 0,
           reader: sql.Reader | None = None) -> sql.MatchRow | None:
    """The row match_of reads (with a `reader`: their token too, in the same query)."""
    return sql.match_row(match_id, events_after=events_after, recent=RECENT_EVENTS, limit=events,
                         spectators_since=spectators_since(), reader=reader)


def for_reader(read: MatchRead, user) -> MatchRead:
    """`read` (match_of's) as `user` reads it, with their seat; NotFound for anyone not seated
    who may not watch it."""
    mine = next((s for s in read.seats if s.user_id == user.pk), None)
    if mine is None and not may_watch(user, read.match):
        raise NotFound()
    return replace(read, mine=mine)


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


def watch_list(after: tuple[int, int] | None, limit: int) -> list[Match]:
    """Live watchable matches, those with more people seated first, then newest first; a keyset
    page after (people, id) of the previous page's last. Each comes with `people` and
    `watching` (how many spectators) annotated, and its seats."""
    watching = Count("spectators", filter=Q(spectators__seen_at__gte=spectators_since()),
                     distinct=True)
    people = Count("seats", filter=Q(seats__user__isnull=False), distinct=True)
    found = (Match.objects.filter(watchable=True, status=Match.Status.ACTIVE)
             .select_related("table").defer("snapshot", "standings", "table__options")
             .annotate(people=people, watching=watching))
    if after is not None:
        found = found.filter(Q(people__lt=after[0]) | Q(people=after[0], pk__lt=after[1]))
    seats = Prefetch("seats", Seat.objects.select_related("user").order_by("index"))
    return list(found.order_by("-people", "-pk").prefetch_related(seats)[:limit])



@dataclass(frozen=True)
class ReplayStep:
    move: Move
    events: list[dict]
    view: dict  # the full view after the move: every hand


@dataclass(frozen=True)
class RoundReplay:
    round: Round
    start: dict  # the full view as the round was dealt, before any move
    steps: list[ReplayStep]


def replay_for(user, match_id: int) -> Match:
    """A finished or aborted match `user` may replay: a player of it, anyone if it was
    watchable, staff; NotFound for anyone else, Conflict while it is still played."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise NotFound()
    seated = Seat.objects.filter(match=match, user=user.pk).exists()
    if not seated and not may_watch(user, match):
        raise NotFound()
    if match.status not in Match.FINAL:
        raise Conflict("match_not_finished", "a match is replayed once it is over",
                       status=match.status)
    return match


def ended_rounds(match: Match) -> list[Round]:
    """The rounds played to their end (an aborted match's last round was not: its seed stays
    secret), with their ledger entries."""
    return list(match.rounds.filter(ended_at__isnull=False).order_by("number")
                .prefetch_related("score_entries"))


def round_replay(match: Match, number: int) -> RoundReplay:
    """Round `number` of `match` rebuilt from the seeds and the log, with every hand open at
    each step: the rounds before it are replayed to reach it."""
    rounds = {r.number: r for r in ended_rounds(match)}
    if number not in rounds:
        raise NotFound("no such round")
    engine = get_ruleset(match.ruleset)
    humans = [kind == Seat.Kind.HUMAN for kind in
              Seat.objects.filter(match=match).order_by("index").values_list("kind", flat=True)]
    state = engine.new_match(match.options, humans)
    steps: list[ReplayStep] = []
    start, played = None, 0

    def deal_to(wanted: int) -> None:
        nonlocal state, start, played
        while played < wanted:
            played += 1
            state = engine.start_round(state, rounds[played].seed)
            if played == number:
                start = engine.full_view(state)

    for round_number, seat, action, move in match_moves(match):  # archived ones too
        if round_number > number:
            break
        deal_to(round_number)
        state, events = engine.apply(state, seat, action)
        if round_number == number:
            steps.append(ReplayStep(move, events, engine.full_view(state)))
    deal_to(number)
    return RoundReplay(rounds[number], start, steps)
