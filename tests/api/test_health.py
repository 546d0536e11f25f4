"""GET /api/v1/health/: database and broker status, no credentials needed."""

import pytest
from django.db import OperationalError, connection

pytestmark = pytest.mark.django_db

HEALTH = "/api/v1/health/"


def test_embedded_mode_is_healthy_with_an_eager_broker(api_client):
    response = api_client.get(HEALTH)
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "eager"}


def test_a_stale_token_does_not_fail_the_probe(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Token stale")
    assert api_client.get(HEALTH).status_code == 200


def test_an_unreachable_broker_degrades_but_still_serves(api_client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = api_client.get(HEALTH)
    assert response.status_code == 200
    assert response.json() == {"status": "degraded", "database": "ok", "broker": "unreachable"}


def test_an_unreachable_database_is_503(api_client, monkeypatch):
    def refuse():
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)
    response = api_client.get(HEALTH)
    assert response.status_code == 503
    assert response.json()["database"] == "unreachable"
    assert response.json()["status"] == "degraded"
