"""Quick matches at the house's tables: a person is seated at a match waiting for people, or a
new one; bots take the seats nobody took once the table's wait is over."""

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.engine.registry import get_ruleset
from games.errors import NotFound
from games.models import DEFAULT_BOT_LEVEL, Match, Seat, Table
from games.services.matches import match_open, seat_specs, seat_taken, start_if_full
from games.services.progress import Progress


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
    # A rematch waits for its own people: no stranger is seated there.
    waiting = table.matches.select_for_update(of=("self",)).filter(
        status=Match.Status.WAITING, bots_fill_at__isnull=False, rematch_of__isnull=True)
    mine = waiting.filter(seats__user=user).first()
    if mine is not None:
        _bots_if_due(mine)
        return Seated(mine, False)
    match = waiting.filter(bots_fill_at__gt=timezone.now()).order_by("bots_fill_at", "pk").first()
    if match is not None:
        progress = Progress.load(match)
        seat_taken(progress, user)
        progress.save()
        return Seated(match, False)
    engine = get_ruleset(table.ruleset)
    options = engine.parse_options(table.options)
    players = options["players"]
    if table.bots_after == 0:
        return Seated(match_open(user, engine, options, seat_specs(None, players, table),
                                 table, clock=table.turn_seconds, watchable=table.watchable),
                      True)
    fill_at = timezone.now() + timedelta(seconds=table.bots_after)
    # The match row says when its bots are due: the recovery sweep seats them then.
    return Seated(match_open(user, engine, options, [{"type": "human"}] * players, table,
                             fill_at, clock=table.turn_seconds, watchable=table.watchable),
                  True)


@transaction.atomic
def match_fill_due(*, match_id: int) -> bool:
    """Bots take the open seats of a quick match whose wait is over, and it starts; False when
    there is nothing to do (not due yet, filled already, no such match), so running it again is
    harmless. The recovery sweep and any read or act after the time call it."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    return match is not None and _bots_if_due(match)


def _bots_if_due(match: Match) -> bool:
    """On a locked match: bots take its open seats if its wait is over, and the match starts."""
    if not match.bots_due:
        return False
    progress = Progress.load(match)
    bots_take(progress, [s for s in progress.seats if s.kind == Seat.Kind.HUMAN
                         and s.user_id is None])
    progress.save()
    return True


def bots_take(progress: Progress, seats: list[Seat]) -> None:
    """Bots at the table's levels (else normal) take these open seats of a waiting match, which
    starts if no seat is left open."""
    match = progress.match
    for seat in seats:
        seat.kind = Seat.Kind.BOT
        seat.bot_level = match.table.bot_level(seat.index) if match.table_id \
            else DEFAULT_BOT_LEVEL
    Seat.objects.bulk_update(seats, ["kind", "bot_level"])
    match.bot_seats = sorted([*match.bot_seats, *(s.index for s in seats)])
    Match.objects.filter(pk=match.pk).update(bot_seats=match.bot_seats)
    progress.event({"type": "bots_joined", "seats": [s.index for s in seats],
                    "levels": [s.bot_level for s in seats]})
    start_if_full(progress)
