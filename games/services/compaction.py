"""Data that stays small: a finished (or aborted) match's moves and events, once it is old enough,
move into one compressed archive row per round (games.archive) and their rows are deleted; the
match, its rounds, seats and ledger stay as they were. Reads fall back to the archive
(games.selectors), so replay, export, the admin and the rounds endpoints work the same.
`match_restore` puts the rows back.
"""

from collections import defaultdict
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import archive, metrics
from games.models import Event, Match, Move, Round, RoundArchive


def match_compact(match_id: int) -> bool:
    """Archive the match's moves and events, under its row's lock; False (nothing done) if it
    is not over or is compacted already."""
    with transaction.atomic():
        match = (Match.objects.select_for_update()
                 .filter(pk=match_id, status__in=Match.FINAL, compacted_at__isnull=True).first())
        if match is None:
            return False
        rounds: dict[int, tuple[list, list]] = defaultdict(lambda: ([], []))
        for move in (Move.objects.filter(match=match).order_by("round__number", "seq")
                     .values("round__number", *archive.MOVE_FIELDS)):
            rounds[move.pop("round__number")][0].append(move)
        for event in Event.objects.filter(match=match).order_by("seq").values(
                *archive.EVENT_FIELDS):
            rounds[event["round_number"]][1].append(event)
        RoundArchive.objects.bulk_create([
            RoundArchive(match=match, number=number, data=archive.pack(moves, events),
                         moves=len(moves), events=len(events))
            for number, (moves, events) in sorted(rounds.items())])
        Move.objects.filter(match=match).delete()
        Event.objects.filter(match=match).delete()
        # update(): the match's updated_at stays the time it ended.
        Match.objects.filter(pk=match_id).update(compacted_at=timezone.now())
    metrics.COMPACTED.inc()
    return True


def matches_compact(*, older_than: timedelta, limit: int) -> int:
    """Compact up to `limit` matches over for longer than `older_than`, oldest first; how many.
    Each in its own transaction: a long run holds no lock for long."""
    cutoff = timezone.now() - older_than
    due = (Match.objects.filter(status__in=Match.FINAL, compacted_at__isnull=True,
                                updated_at__lt=cutoff)
           .order_by("updated_at").values_list("pk", flat=True)[:limit])
    return sum(match_compact(match_id) for match_id in list(due))


def match_restore(match_id: int) -> bool:
    """Put a compacted match's moves and events back into their tables, with their times, and
    drop its archive rows; False if it is not compacted."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(
            pk=match_id, compacted_at__isnull=False).first()
        if match is None:
            return False
        rounds = dict(Round.objects.filter(match=match).values_list("number", "id"))
        moves, events = [], []
        for number, archived_moves, archived_events in archive.documents(match_id):
            moves += [Move(match_id=match_id, round_id=rounds[number], **m)
                      for m in archived_moves]
            events += [Event(match_id=match_id, **e) for e in archived_events]
        for model, rows in ((Move, moves), (Event, events)):
            # bulk_create stamps auto_now_add times with now: their own are written back.
            times = [row.created_at for row in rows]
            model.objects.bulk_create(rows)
            for row, at in zip(rows, times, strict=True):
                row.created_at = at
            model.objects.bulk_update(rows, ["created_at"], batch_size=1000)
        RoundArchive.objects.filter(match=match).delete()
        Match.objects.filter(pk=match_id).update(compacted_at=None)
    return True
