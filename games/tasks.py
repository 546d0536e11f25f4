"""The games app's periodic work, run by beat (config/settings.py's CELERY_BEAT_SCHEDULE)."""

import time
from datetime import timedelta

from celery import shared_task
from django.conf import settings

from games.services import compaction

# Matches per batch; a run takes batches until none is full or its time is up.
COMPACT_BATCH = 20


# On the bots queue, in a slot a bot's turn could use: a run stops taking batches after half the
# bot tasks' soft limit (well inside Redis's visibility timeout), and beat sends one every
# COMPACT_EVERY_SECONDS, so a backlog clears over runs without holding a worker for long.
@shared_task(soft_time_limit=settings.BOT_TASK_SOFT_TIME_LIMIT,
             time_limit=settings.BOT_TASK_TIME_LIMIT)
def compact_matches() -> int:
    started, done = time.monotonic(), 0
    while time.monotonic() - started < settings.BOT_TASK_SOFT_TIME_LIMIT / 2:
        batch = compaction.matches_compact(
            older_than=timedelta(days=settings.COMPACT_AFTER_DAYS), limit=COMPACT_BATCH)
        done += batch
        if batch < COMPACT_BATCH:
            break
    return done
