"""The Celery app: configured from Django settings (CELERY_*), tasks found in installed apps,
each worker's heartbeat (readiness reads it), and database connections kept across tasks."""

import os

from celery import Celery, signals
from celery.fixups.django import DjangoFixup
from django.db import close_old_connections

from games.coordination import WorkerHeartbeat

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.steps["worker"].add(WorkerHeartbeat)


@signals.worker_init.connect
@signals.beat_init.connect
def _serve_metrics(**kwargs) -> None:
    from config.prometheus import serve_metrics

    serve_metrics()


@signals.worker_process_shutdown.connect
def _process_gone(pid=None, **kwargs) -> None:
    from config.prometheus import process_gone

    process_gone(pid or os.getpid())


@signals.worker_init.connect
def _keep_connection_pools(**kwargs) -> None:
    """Celery's Django fixup closes a prefork child's connection pool before and after every
    task (celery issue 10554): each task then opened a new PostgreSQL connection, and the
    statements games.sql prepares were never reused. That cost a `normal` bot turn most of its
    time (bench/bot_capacity.py). Tasks here end as a request does instead: the connection goes
    back to the process's pool, and one that broke is dropped. The fixup still closes the pool
    a child inherits from its parent when it starts (worker_process_init). Connected after the
    fixup's own worker_init receiver, which this replaces the task receivers of."""
    for fixup in app._fixups:
        if isinstance(fixup, DjangoFixup):
            worker_fixup = fixup.worker_fixup
            signals.task_prerun.disconnect(worker_fixup.on_task_prerun)
            signals.task_postrun.disconnect(worker_fixup.on_task_postrun)
            signals.task_prerun.connect(_task_boundary, weak=False)
            signals.task_postrun.connect(_task_boundary, weak=False)


def _task_boundary(sender=None, **kwargs) -> None:
    if not getattr(sender.request, "is_eager", False):
        close_old_connections()
