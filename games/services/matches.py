"""A match's life outside play: created (from a ruleset or a table), joined with its invite code,
left, aborted by staff. Each is one transaction on the locked match row."""

import secrets
from collections.abc import Mapping, Sequence

from django.conf import settings
from django.db import transaction

from games.engine.errors import IllegalAction
from games.engine.registry import get_ruleset
from games.engine.ruleset import Ruleset
from games.engine.specs import MISSING, Int, Nullable, parse
from games.errors import Conflict, MatchFull, NotFound
from games.models import (
    BOT_LEVELS,
    DEFAULT_BOT_LEVEL,
    DEFAULT_TURN_SECONDS,
    MAX_SERVER_PACE_MS,
    TURN_SECONDS,
    Match,
    RulesetDefaults,
    Seat,
    Table,
    options_hash,
)
from games.services.progress import Progress

TURN_CLOCK = Nullable(Int(*TURN_SECONDS, "seconds a person has for each decision; null: no "
                          "clock; missing: none when one person plays against bots, "
                          f"{DEFAULT_TURN_SECONDS} when people share the table"))
SERVER_PACE = Int(0, MAX_SERVER_PACE_MS, "milliseconds between the server's consecutive moves "
                  "(bots, 托管), twice as long after a trick is taken and before a round; 0: at "
                  "once; missing: the table's, else the house's")
# The options of a match itself, taken in `options` beside the ruleset's (the schema shows them
# with each ruleset's).
MATCH_OPTIONS = {"turn_seconds": TURN_CLOCK, "server_pace_ms": SERVER_PACE}
INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed
INVITE_LENGTH = 10


def _invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


def seat_specs(seats: Sequence[Mapping] | None, players: int,
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
                 table: str | None = None, watchable: bool | None = None) -> Match:
    """A new match with `owner` in seat 0, from a table (its ruleset, options and bots) or a
    ruleset; dealt at once when no other human seat is open. Watchable as the creator says,
    else as its table is (without a table: not)."""
    chosen = None if table is None else _table_named(table)
    engine = get_ruleset(_ruleset_of(ruleset, chosen))
    options = dict(options or {})
    clock = _turn_clock(options.pop("turn_seconds", MISSING), chosen)
    pace = _server_pace(options.pop("server_pace_ms", MISSING), chosen)
    parsed = _options_for(engine, chosen, options, seats)
    if watchable is None:
        watchable = chosen is not None and chosen.watchable
    return match_open(owner, engine, parsed, seat_specs(seats, parsed["players"], chosen),
                      chosen, clock=clock, pace=pace, watchable=watchable)


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


def _server_pace(asked, table: Table | None) -> int | None:
    """The server's pace asked for (the option `server_pace_ms`), checked against a table that
    fixes its options; None: not asked (the table's or the house's applies)."""
    if asked is MISSING:
        return None
    pace = parse(SERVER_PACE, asked, "invalid_option", "option", "server_pace_ms")
    if table is not None and not table.allow_override and pace != table.pace_ms():
        raise IllegalAction("invalid_option", f"server_pace_ms: table {table.slug!r} fixes its "
                            "options", option="server_pace_ms", table=table.slug)
    return pace


def match_open(owner, engine: Ruleset, options: dict, specs: list[dict], table: Table | None,
               bots_fill_at=None, clock: int | None = None, *, seat: int | None = 0,
               rematch_of: Match | None = None, pace: int | None = None,
               watchable: bool = False) -> Match:
    """The match's rows, `owner` in `seat` (None: nowhere, an exhibition's staff; a human seat
    may be kept for someone: its spec's `reserved_for`); started at once if no human seat is
    open. `pace`: the server's, in ms (None: the table's, else the house's)."""
    match = Match.objects.create(
        ruleset=engine.name, options=options, options_hash=options_hash(options),
        turn_seconds=clock, table=table, rematch_of=rematch_of, watchable=watchable,
        server_pace_ms=pace if pace is not None else
        table.pace_ms() if table is not None else settings.SERVER_PACE_MS,
        owner=owner, invite_code=_invite_code(), bots_fill_at=bots_fill_at,
        bot_seats=[i for i, spec in enumerate(specs) if spec["type"] == "bot"],
    )
    Seat.objects.bulk_create(
        Seat(match=match, index=i, kind=spec["type"], bot_level=spec.get("level", ""),
             user=owner if i == seat else None, reserved_for=spec.get("reserved_for"),
             match_status=match.status)
        for i, spec in enumerate(specs)
    )
    progress = Progress.load(match)
    progress.event({"type": "match_created", "seats": [s["type"] for s in specs]})
    if seat is not None:
        progress.seated.append((owner.pk, seat))
    start_if_full(progress)
    progress.save()
    return match


def start_if_full(progress: Progress) -> None:
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


def seat_taken(progress: Progress, user) -> None:
    """`user` in the seat kept for them, else the first open human seat kept for nobody; the
    match starts if that was the last one."""
    open_seats = sorted((s for s in progress.seats if s.kind == Seat.Kind.HUMAN
                         and s.user_id is None and s.reserved_for_id in (None, user.pk)),
                        key=lambda s: (s.reserved_for_id != user.pk, s.index))
    # A quick match whose wait is over is the bots' already, even before they sit down.
    if progress.match.status != Match.Status.WAITING or progress.match.bots_due or not open_seats:
        raise MatchFull()
    seat = open_seats[0]
    seat.user = user
    progress.seated.append((user.pk, seat.index))
    seat.save(update_fields=["user"])
    progress.event({"type": "player_joined", "seat": seat.index})
    start_if_full(progress)


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
    progress = Progress.load(match)
    seat_taken(progress, user)
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
    progress = Progress.load(match)
    Seat.objects.filter(pk=seat.pk).update(user=None)
    progress.event({"type": "player_left", "seat": seat.index})
    progress.save()
    return match


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
    if match.status not in Match.OPEN:
        raise Conflict("match_over", f"the match is {match.status} already",
                       status=match.status)
    progress = Progress.load(match)
    progress.set_status(Match.Status.ABORTED)
    progress.event({"type": "match_aborted", "reason": reason})
    progress.save()
    return match
