"""GET /api/v1/health/ (liveness: database and broker status) and /api/v1/health/ready/
(readiness: every part of the deployment), no credentials needed."""

import json

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError, connection

from games import coordination

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


READY = "/api/v1/health/ready/"


def test_readiness_in_the_embedded_mode_has_no_beat_nor_worker_to_check(api_client):
    response = api_client.get(READY)
    assert response.status_code == 200
    assert response.json() == {
        "status": "ready", "database": "ok", "redis": "embedded", "sweep": "embedded",
        "sweep_seconds_ago": None, "bots_worker": "embedded", "clock_worker": "embedded"}


@pytest.fixture
def workers_mode(settings, monkeypatch):
    """Workers' mode, with the heartbeats' ages (seconds, None: none) as the test sets them."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.SWEEP_STALE_SECONDS = 10
    settings.WORKER_HEARTBEAT_SECONDS = 5
    ages = {"sweep": 1.5, "bots": 2.0, "clock": 3.0}
    monkeypatch.setattr(coordination, "last_beats", lambda names: {n: ages[n] for n in names})
    return ages


def test_ready_when_the_sweep_ran_lately_and_each_queue_has_a_live_worker(api_client,
                                                                          workers_mode):
    response = api_client.get(READY)
    assert response.status_code == 200
    assert response.json() == {
        "status": "ready", "database": "ok", "redis": "ok", "sweep": "ok",
        "sweep_seconds_ago": 1.5, "bots_worker": "ok", "clock_worker": "ok"}


@pytest.mark.parametrize(("part", "age", "check", "says"),
                         [("sweep", 10.5, "sweep", "late"), ("sweep", None, "sweep", "late"),
                          ("bots", 16, "bots_worker", "missing"),
                          ("clock", None, "clock_worker", "missing")])
def test_a_late_sweep_or_a_queue_without_a_worker_is_503_naming_it(api_client, workers_mode,
                                                                    part, age, check, says):
    workers_mode[part] = age
    response = api_client.get(READY)
    assert response.status_code == 503
    assert response.json()["status"] == "unready" and response.json()[check] == says


def test_an_unreachable_redis_makes_the_deployment_unready(api_client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = api_client.get(READY)
    assert response.status_code == 503
    assert response.json()["redis"] == "unreachable"
    assert response.json()["sweep"] == "unknown"


def test_the_ready_command_fails_only_on_the_checks_it_is_asked(workers_mode, capsys):
    workers_mode["clock"] = None
    call_command("ready", "--check", "sweep")  # beat's healthcheck: the sweep is fine
    assert json.loads(capsys.readouterr().out)["clock_worker"] == "missing"
    with pytest.raises(CommandError, match="clock_worker"):
        call_command("ready")
