"""Spectators: who watches a match now (renewed by their stream), and the all-bot exhibition
match staff start from the admin for people to watch."""

from django.db import transaction
from django.utils import timezone

from games.engine.errors import IllegalAction
from games.engine.registry import get_ruleset
from games.models import BOT_LEVELS, Match, Spectator, Table
from games.services.matches import match_open


def spectator_seen(*, match_id: int, user) -> None:
    """`user`'s stream of the match is open now (a new row, or its time renewed)."""
    Spectator.objects.bulk_create(
        [Spectator(match_id=match_id, user=user, seen_at=timezone.now())],
        update_conflicts=True, unique_fields=["match", "user"], update_fields=["seen_at"])


def spectator_gone(*, match_id: int, user) -> None:
    """`user`'s stream closed (another of theirs, still open, renews the row at its next
    heartbeat)."""
    Spectator.objects.filter(match=match_id, user=user).delete()


@transaction.atomic
def exhibition_open(*, staff, table: Table, levels: list[str]) -> Match:
    """An all-bot match of `table`'s ruleset and options, watchable, started at once: one
    level per seat. `staff` owns it and sits nowhere."""
    engine = get_ruleset(table.ruleset)
    options = engine.parse_options(table.options)
    if len(levels) != options["players"] or not set(levels) <= set(BOT_LEVELS):
        raise IllegalAction("invalid_seats", f"one level per seat, each one of {BOT_LEVELS}",
                            players=options["players"])
    specs = [{"type": "bot", "level": level} for level in levels]
    return match_open(staff, engine, options, specs, table, clock=0, seat=None, watchable=True)
