"""What is due in a match without anyone acting: the seats in 托管, the server's turns, clocks that
run out, a quick match's bots, a paused match's abandonment. The match row says when
(Match.due_at); the recovery sweep claims what is due, and any read that finds it overdue does it
at once."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import hooks, selectors
from games.errors import NotFound
from games.models import Match, Seat
from games.selectors import MatchRead
from games.services.progress import AUTOPLAY_ASKED, Progress, in_play
from games.services.tables import match_fill_due
from games.sql import MatchRow


@transaction.atomic
def autoplay_set(*, user, match_id: int, on: bool) -> Match:
    """The person asks the server to play their seat (托管) or takes it back; asking twice
    changes nothing. A seat put into 托管 on its turn is played at once. Either brings a paused
    match back: its person is here (托管 asked for is a choice made present)."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    seat = None if match is None else Seat.objects.filter(match=match, user=user).first()
    if seat is None:
        raise NotFound()
    if match.status == Match.Status.PAUSED:
        progress = Progress.load(match)
        progress.autoplay(seat.index, AUTOPLAY_ASKED if on else None, "asked")
        progress.resume(seat.index)
        progress.save()
        return match
    in_play(match)
    if (str(seat.index) in match.autoplay) == on:
        return match
    progress = Progress.load(match)
    progress.autoplay(seat.index, AUTOPLAY_ASKED if on else None, "asked")
    progress.save()
    return match


def due_claim(*, lease: float, limit: int, match_id: int | None = None) -> list[tuple]:
    """The matches whose turn is due now (the server is to act, a clock ran out, a quick match's
    bots are to sit down), `limit` at most, each claimed for `lease` seconds: a concurrent or the
    next sweep skips them until then, and if the work queued for them is lost, they come back.
    (id, version, status) each. `match_id`: that match only (a request that found it due)."""
    now = timezone.now()
    with transaction.atomic():
        due = Match.objects.select_for_update(skip_locked=True).filter(due_at__lte=now)
        if match_id is not None:
            due = due.filter(pk=match_id)
        rows = list(due.order_by("due_at").values_list("id", "version", "status")[:limit])
        Match.objects.filter(pk__in=[row[0] for row in rows]).update(
            due_at=now + timedelta(seconds=lease))
    return rows


@transaction.atomic
def match_abandon(*, match_id: int, version: int) -> bool:
    """A paused match nobody came back to within PAUSE_ABANDON_SECONDS is abandoned: aborted, as
    staff would, with the reason in its event. False if it is no longer paused at `version`
    (someone came back)."""
    match = Match.objects.select_for_update().filter(
        pk=match_id, version=version, status=Match.Status.PAUSED).first()
    if match is None:
        return False
    progress = Progress.load(match)
    progress.set_status(Match.Status.ABORTED)
    hours = settings.PAUSE_ABANDON_SECONDS / 3600
    progress.event({"type": "match_aborted", "by": "server", "reason": f"abandoned: everyone was "
                    f"away and nobody came back within {hours:g} h"})
    progress.save()
    return True


def due_do(match_id: int, version: int, status: str, *, turn) -> bool:
    """Do what was claimed due in a match (as due_claim gives it): seat a quick match's bots,
    abandon a paused match, or `turn(match_id, version)`, the server's turn. True if the match
    may have changed."""
    if status == Match.Status.WAITING:
        return match_fill_due(match_id=match_id)
    if status == Match.Status.PAUSED:
        return match_abandon(match_id=match_id, version=version)
    turn(match_id, version)
    return True


def clocks_claim(*, ahead: float, lease: float, limit: int) -> list[tuple]:
    """The people's clocks that run out within `ahead` seconds (or have run out), `limit` at
    most, each claimed until `lease` seconds after it runs out: its timeout is queued to be
    played when it runs out rather than at the first sweep after, and if that is lost, the
    sweep finds it due again. (id, version, deadline) each."""
    now = timezone.now()
    with transaction.atomic():
        clocks = Match.objects.select_for_update(skip_locked=True).filter(
            due_at__lte=now + timedelta(seconds=ahead), deadline_at=F("due_at"),
            status=Match.Status.ACTIVE)
        rows = list(clocks.order_by("due_at").values_list("id", "version", "deadline_at")[:limit])
        Match.objects.filter(pk__in=[row[0] for row in rows]).update(
            due_at=F("deadline_at") + timedelta(seconds=lease))
    return rows


def match_read(user, match_id: int, *, events_after: int | None = None,
               events: int = 0, row: MatchRow | None = None) -> MatchRead:
    """The match as `user` may read it (selectors.match_for), with what is overdue in it done
    first rather than at the next sweep: at once where tasks run in-process, else queued now.
    `row`: selectors.row_of's, read already with the same arguments."""
    (read,) = match_reads([user], match_id, events_after=events_after, events=events, row=row)
    if isinstance(read, NotFound):
        raise read
    return read


def match_reads(users: list, match_id: int, *, events_after: int | None = None,
                events: int = 0, row: MatchRow | None = None) -> list[MatchRead | NotFound]:
    """match_read for each of `users` (a NotFound for each who may not read it) from one read
    of the match, and one handling of what is overdue in it (if any of them may read it)."""
    read = selectors.match_of(match_id, events_after=events_after, events=events, row=row)
    reads = [_for_reader(read, user) for user in users]
    if any(isinstance(r, MatchRead) for r in reads) and _overdue_handle(read.match):
        read = selectors.match_of(match_id, events_after=events_after, events=events)
        reads = [_for_reader(read, user) for user in users]
    return reads


def _for_reader(read: MatchRead, user) -> MatchRead | NotFound:
    try:
        return selectors.for_reader(read, user)
    except NotFound as refused:
        return refused


def _overdue_handle(match: Match) -> bool:
    """A read found `match` past its due time: do what is due now (seat a quick match's bots,
    abandon a match paused too long, announce the server's turn, played at once when tasks run
    in-process). True if the match may have changed."""
    if match.due_at is None or match.due_at > timezone.now():
        return False
    claimed = due_claim(lease=settings.TURN_RECOVERY_SECONDS, limit=1, match_id=match.pk)
    if not claimed:
        return False  # someone else has it
    return due_do(*claimed[0], turn=hooks.announce_server_turn)
