"""The Celery app: configured from Django settings (CELERY_*), tasks found in installed apps, and
each worker's heartbeat (readiness reads it)."""

import os

from celery import Celery, signals

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
