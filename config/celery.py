"""The Celery app: configured from Django settings (CELERY_*), tasks found in installed apps, and
each worker's heartbeat (readiness reads it)."""

import os

from celery import Celery

from bots.coordination import WorkerHeartbeat

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.steps["worker"].add(WorkerHeartbeat)
