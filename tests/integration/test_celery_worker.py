"""A real worker process on Redis, reading the same PostgreSQL database as the tests."""

import pytest

from config.celery import app as celery_app
from config.tasks import ping

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 20


def test_the_worker_answers_a_ping_task():
    result = ping.delay()
    assert result.get(timeout=TIMEOUT) == "pong"
    assert celery_app.AsyncResult(result.id).state == "SUCCESS"


def test_the_worker_sees_rows_the_test_committed(django_user_model):
    django_user_model.objects.create_user("committed", password="x" * 12)
    exists = celery_app.signature("tests.integration.user_exists")
    assert exists.delay("committed").get(timeout=TIMEOUT) is True
    assert exists.delay("never-created").get(timeout=TIMEOUT) is False


def test_health_reports_the_real_database_and_broker(api_client):
    response = api_client.get("/api/v1/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok"}
