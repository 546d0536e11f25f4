"""`manage.py verify_matches [ID ...]`: check that each match's log is whole. The move log is the
truth and the snapshot a cache of it: the snapshot must be what replaying the log rebuilds, the
events must be numbered without a gap, each move must be the only one of its version, and each
finished round's ledger must sum to zero. Exits 1 if any match fails, naming it and why."""

import json
from collections import Counter

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import Sum

from games.engine.registry import get_ruleset
from games.models import Match, Move
from games.selectors import match_events, match_moves, match_replay
from scoring.models import ScoreEntry


def problems(match_id: int) -> list[str]:
    """What is wrong with the match, read under its row's lock: a match in play holds still
    (every write to it takes that lock first, or waits for it) while it is checked."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        return _problems(match)


def _problems(match: Match) -> list[str]:
    found = []
    if match.snapshot is not None:
        rebuilt = get_ruleset(match.ruleset).to_json(match_replay(match))
        if json.loads(json.dumps(rebuilt)) != match.snapshot:
            found.append("the snapshot is not what the move log replays to")
    seqs = [e.seq for e in match_events(match)]
    if seqs != list(range(1, match.last_event_seq + 1)):
        found.append("the events are not numbered 1..last_event_seq without a gap")
    chosen = Counter(m.version for *_, m in match_moves(match)
                     if (m.actor, m.reason) != (Move.Actor.AUTO, Move.Reason.FORCED))
    doubled = sorted(version for version, n in chosen.items() if n > 1)
    if doubled:
        found.append(f"versions with two chosen moves: {doubled}")
    unbalanced = (ScoreEntry.objects.filter(round__match=match).values("round__number")
                  .annotate(total=Sum("delta")).exclude(total=0))
    if unbalanced.exists():
        found.append(f"rounds whose ledger is not zero-sum: {list(unbalanced)}")
    return found


class Command(BaseCommand):
    help = "Check that matches' logs, snapshots, events and ledgers agree."

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="*", type=int, help="match ids (default: all)")

    def handle(self, *args, ids, **options):
        matches = Match.objects.order_by("pk")
        if ids:
            matches = matches.filter(pk__in=ids)
        failed = 0
        for match_id in matches.values_list("pk", flat=True):
            found = problems(match_id)
            if found:
                failed += 1
                self.stdout.write(f"match {match_id}: " + "; ".join(found))
        checked = matches.count()
        if failed:
            raise CommandError(f"{failed} of {checked} matches failed")
        self.stdout.write(f"{checked} matches whole")
