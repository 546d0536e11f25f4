"""Play again: a finished match's rematch, the same options and seats (its bots at the same
levels), one per match. Whoever asks first opens it and sits down; each seat of the others is
kept for its person, who takes it (accepts) or declines; bots take the seats declined at once and
those still open when the wait is over (REMATCH_ANSWER_SECONDS), as a quick match's bots do
(Match.bots_fill_at), and the match starts."""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import live
from games.engine.registry import get_ruleset
from games.errors import Conflict, MatchFull, NotFound
from games.models import Match, Seat
from games.services.matches import match_open, seat_taken
from games.services.progress import Progress
from games.services.tables import Seated, bots_take


@dataclass(frozen=True)
class Finished:
    """A finished match, locked, with the caller's seat and its rematch (None: not asked for),
    locked too."""

    match: Match
    seat: Seat
    rematch: Match | None


def _finished(user, match_id: int) -> Finished:
    """The finished match `user` played, and its rematch; NotFound for anyone else, Conflict
    while it is not finished."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    seat = None if match is None else Seat.objects.filter(match=match, user=user).first()
    if seat is None:
        raise NotFound()
    if match.status != Match.Status.FINISHED:
        raise Conflict("match_not_finished", "A rematch is offered once the match is finished.",
                       status=match.status)
    rematch = Match.objects.select_for_update().filter(rematch_of=match).first()
    return Finished(match, seat, rematch)


@transaction.atomic
def rematch_accept(*, user, match_id: int) -> Seated:
    """`user` plays the finished match again: the rematch opened now with them seated (opened:
    True), or their seat taken in the one someone opened (accepted twice: the same seat).
    Conflict `rematch_closed` once it started without them."""
    found = _finished(user, match_id)
    if found.rematch is None:
        return Seated(_open(found, user), True)
    rematch = found.rematch
    if Seat.objects.filter(match=rematch, user=user).exists():
        return Seated(rematch, False)
    progress = Progress.load(rematch)
    try:
        seat_taken(progress, user)
    except MatchFull as closed:
        raise Conflict("rematch_closed", "The rematch started without you: bots took your "
                       "seat.", match=rematch.pk) from closed
    progress.save()
    return Seated(rematch, False)


@transaction.atomic
def rematch_decline(*, user, match_id: int) -> Match:
    """`user` does not play the rematch: a bot takes the seat kept for them, and the rematch
    starts if that was the last one open. Declining what was decided already changes nothing.
    Conflict `no_rematch` when nobody asked for one."""
    found = _finished(user, match_id)
    if found.rematch is None:
        raise Conflict("no_rematch", "Nobody asked for a rematch of this match.")
    rematch = found.rematch
    progress = Progress.load(rematch)
    kept = [s for s in progress.seats if s.reserved_for_id == user.pk and s.user_id is None
            and s.kind == Seat.Kind.HUMAN]
    if kept and rematch.status == Match.Status.WAITING:
        bots_take(progress, kept)
        progress.save()
    return found.match


def _open(found: Finished, user) -> Match:
    """The rematch of `found.match`, `user` seated where they sat and every other person's seat
    kept for them; the finished match's log says it is offered, and the others' account streams
    hear it."""
    old, asker = found.match, found.seat
    seats = list(Seat.objects.filter(match=old).select_related("user").order_by("index"))
    specs = [{"type": "bot", "level": s.bot_level} if s.kind == Seat.Kind.BOT else
             {"type": "human", "reserved_for": s.user if s.user_id != user.pk else None}
             for s in seats]
    waiting = timedelta(seconds=settings.REMATCH_ANSWER_SECONDS)
    rematch = match_open(user, get_ruleset(old.ruleset), old.options, specs, old.table,
                         timezone.now() + waiting, clock=old.turn_seconds, seat=asker.index,
                         rematch_of=old, pace=old.server_pace_ms, watchable=old.watchable)
    told = Progress.load(old)
    told.event({"type": "rematch_offered", "match": rematch.pk, "seat": asker.index})
    told.save()
    others = [s.user_id for s in seats if s.user_id not in (None, user.pk)]
    notice = {"match": old.pk, "rematch": rematch.pk, "seat": asker.index}
    transaction.on_commit(lambda: [live.publish(live.user_channel(u), notice) for u in others],
                          robust=True)
    return rematch
