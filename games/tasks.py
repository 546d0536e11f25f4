"""The games app's periodic work, run by beat (config/settings.py's CELERY_BEAT_SCHEDULE)."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from games.services import compaction

# Matches per run: a run stays well inside its time limit; a backlog clears over a few runs.
COMPACT_BATCH = 200


@shared_task(soft_time_limit=600, time_limit=660)
def compact_matches() -> int:
    return compaction.matches_compact(
        older_than=timedelta(days=settings.COMPACT_AFTER_DAYS), limit=COMPACT_BATCH)
