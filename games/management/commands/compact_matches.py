"""`manage.py compact_matches`: archive the moves and events of matches over for longer than
COMPACT_AFTER_DAYS (games.services.compaction); beat runs the same every COMPACT_EVERY_SECONDS.
`--restore ID ...` puts an archived match's rows back."""

from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.services import compaction


class Command(BaseCommand):
    help = "Archive finished matches' moves and events (one compressed row per round)."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=float, default=settings.COMPACT_AFTER_DAYS,
                            help="only matches over for longer than this (default: "
                            "COMPACT_AFTER_DAYS)")
        parser.add_argument("--limit", type=int, default=1000,
                            help="at most this many matches (default 1000)")
        parser.add_argument("--restore", type=int, nargs="+", metavar="ID",
                            help="put these matches' moves and events back in their tables")

    def handle(self, *args, days, limit, restore, **options):
        if restore:
            missing = [match_id for match_id in restore if not compaction.match_restore(match_id)]
            if missing:
                raise CommandError(f"not compacted (or no such match): {missing}")
            self.stdout.write(f"{len(restore)} matches restored")
            return
        done = compaction.matches_compact(older_than=timedelta(days=days), limit=limit)
        self.stdout.write(f"{done} matches compacted")
