"""Tasks loaded only into the integration worker (celery worker --include ...), to look at the
database from the worker's side. Task results are not stored (CELERY_TASK_IGNORE_RESULT): the
worker writes its answer in Redis, under a key the test names."""

import json

import redis
from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection


@shared_task(name="tests.integration.user_exists")
def user_exists(username: str, answer_key: str) -> None:
    found = get_user_model().objects.filter(username=username).exists()
    redis.Redis.from_url(settings.CELERY_BROKER_URL).set(answer_key, json.dumps(found), ex=60)


@shared_task(name="tests.integration.backend_pid")
def backend_pid(answer_key: str) -> None:
    """The PostgreSQL backend serving this task's connection, or "error" if it broke."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            found = cursor.fetchone()[0]
    except DatabaseError:
        found = "error"
    redis.Redis.from_url(settings.CELERY_BROKER_URL).set(answer_key, json.dumps(found), ex=60)
