"""The games app's Celery task: bots take a quick match's open seats once its wait is over."""

from datetime import datetime

from celery import current_app, shared_task
from django.db import InterfaceError, OperationalError

from games import services


def schedule_bots(match_id: int, when: datetime) -> None:
    """`fill_open_seats` at `when`. Eager tasks (no broker) ignore countdowns: there the first
    read or act after `when` seats the bots instead (so does it wherever the task runs late)."""
    if not current_app.conf.task_always_eager:
        fill_open_seats.apply_async((match_id,), eta=when)


# Idempotent (filling twice changes nothing), so at-least-once delivery is enough.
@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
)
def fill_open_seats(match_id: int) -> bool:
    return services.match_fill_due(match_id=match_id)
