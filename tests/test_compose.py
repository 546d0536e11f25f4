"""docker-compose.yml describes production: checked as data, since no Docker engine runs here."""

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = ("web", "worker", "clock", "beat", "migrate")


def test_the_production_services_are_all_there():
    assert set(SERVICES) == {"web", "worker", "clock", "beat", "migrate", "postgres", "redis"}


def test_web_worker_and_migrate_share_one_image_and_one_environment():
    first = SERVICES[APP_SERVICES[0]]
    for name in APP_SERVICES[1:]:
        assert SERVICES[name]["build"] == first["build"] == "."
        assert SERVICES[name]["image"] == first["image"]
        assert SERVICES[name]["environment"] == first["environment"]


def test_the_environment_is_production():
    env = SERVICES["web"]["environment"]
    assert env["DEBUG"] == "0"
    assert env["SECRET_KEY"].startswith("${SECRET_KEY:?")  # refuse to start without one
    assert env["DATABASE_URL"].startswith("postgres://")
    assert "@postgres:5432/" in env["DATABASE_URL"]
    assert env["CELERY_BROKER_URL"].startswith("redis://redis:6379/")
    assert env["CACHE_URL"].startswith("redis://redis:6379/")
    assert env["CACHE_URL"] != env["CELERY_BROKER_URL"]


def test_the_commands_run_gunicorn_celery_and_migrations():
    assert SERVICES["web"]["command"][:4] == ["gunicorn", "config.asgi:application",
                                               "--worker-class", "config.workers.UvicornWorker"]
    assert SERVICES["worker"]["command"][:4] == ["celery", "-A", "config", "worker"]
    assert SERVICES["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    assert SERVICES["migrate"]["command"][-2:] == ["migrate", "--noinput"]


@pytest.mark.parametrize("name", ["web", "worker", "clock", "beat", "postgres", "redis"])
def test_long_running_services_have_health_checks(name):
    check = SERVICES[name]["healthcheck"]
    assert check["test"][0] in {"CMD", "CMD-SHELL"}
    assert check["interval"] and check["retries"]


def test_the_web_health_check_uses_the_health_endpoint():
    assert any("/api/v1/health/" in part for part in SERVICES["web"]["healthcheck"]["test"])


def test_bots_and_clocks_have_a_worker_each_and_beat_is_healthy_while_it_sweeps():
    def queues(name):
        command = SERVICES[name]["command"]
        return command[command.index("-Q") + 1]

    assert (queues("worker"), queues("clock")) == ("bots", "clock")
    assert "--concurrency=1" in SERVICES["clock"]["command"]
    assert SERVICES["beat"]["healthcheck"]["test"][-4:] == ["manage.py", "ready", "--check",
                                                          "sweep"]


def test_the_app_starts_after_healthy_dependencies_and_migrations():
    assert SERVICES["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("web", "worker", "clock", "beat"):
        depends = SERVICES[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["redis"]["condition"] == "service_healthy"


def test_the_image_is_built_from_the_dockerfile_for_production():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "DEBUG=0" in dockerfile
    assert "collectstatic" in dockerfile
    assert "USER app" in dockerfile
