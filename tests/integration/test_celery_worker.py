"""A real worker process on Redis, reading the same PostgreSQL database as the tests."""

import json
import time
import uuid

import pytest
import redis
from django.conf import settings

from config.celery import app as celery_app

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 20


def worker_says(username: str):
    """What the worker answers, through Redis: does it see this user?"""
    key = f"probe:{uuid.uuid4().hex}"
    celery_app.send_task("tests.integration.user_exists", (username, key))
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    deadline = time.monotonic() + TIMEOUT
    while (answer := client.get(key)) is None:
        assert time.monotonic() < deadline, "the worker did not answer"
        time.sleep(0.05)
    return json.loads(answer)


def test_the_worker_answers_pings(celery_worker):
    replies = celery_app.control.ping(destination=[celery_worker], timeout=5)
    assert replies == [{celery_worker: {"ok": "pong"}}]


def test_the_worker_sees_rows_the_test_committed(django_user_model):
    django_user_model.objects.create_user("committed", password="x" * 12)
    assert worker_says("committed") is True
    assert worker_says("never-created") is False


def test_health_reports_the_real_database_and_broker(api_client):
    response = api_client.get("/api/v1/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok"}
