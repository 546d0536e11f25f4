"""A real worker process on Redis, reading the same PostgreSQL database as the tests."""

import json
import time
import uuid

import pytest
import redis
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from tests.integration.conftest import start_worker, stop_worker

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 20


def worker_says(username: str):
    """What the worker answers, through Redis: does it see this user?"""
    return probe("tests.integration.user_exists", username)


def probe(task: str, *args, queue: str | None = None):
    """What the worker answers to a probe task, through Redis."""
    key = f"probe:{uuid.uuid4().hex}"
    celery_app.send_task(task, (*args, key), queue=queue)
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


@pytest.fixture
def prefork_worker(tmp_path):
    """A worker as production runs it (prefork), one child, on a queue of its own."""
    queue = f"prefork-{uuid.uuid4().hex[:8]}"
    worker, _ = start_worker("prefork", tmp_path / "prefork.log", args=(
        "--pool=prefork", "--concurrency=1", "-Q", queue,
        "--include", "tests.integration.probe_tasks"))
    try:
        yield queue
    finally:
        stop_worker(worker)


def test_a_prefork_worker_keeps_its_database_connections_across_tasks(prefork_worker):
    # Celery's Django fixup closed the child's connection pool around every task: a new
    # PostgreSQL connection per task (config.celery._keep_connection_pools). The pool lends
    # its connections in turn; it opens a second one at most here.
    pids = [probe("tests.integration.backend_pid", queue=prefork_worker) for _ in range(6)]
    assert "error" not in pids and len(set(pids)) <= 2, pids


def test_a_prefork_worker_replaces_connections_the_database_dropped(prefork_worker):
    pooled = {probe("tests.integration.backend_pid", queue=prefork_worker) for _ in range(4)}
    with connection.cursor() as cursor:
        for pid in pooled:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    # A task that meets a dropped connection fails once (a bot turn retries), as a request
    # does; the connection is not lent again.
    answers = [probe("tests.integration.backend_pid", queue=prefork_worker)
               for _ in range(len(pooled) + 1)]
    assert answers[-1] != "error" and answers[-1] not in pooled, (pooled, answers)
