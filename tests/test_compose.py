"""docker-compose.yml and deploy/nginx.conf describe production: checked as data, since no Docker
engine runs here (tests/integration/test_scale_out.py runs the same nginx file in front of two
web servers when nginx is installed)."""

import ipaddress
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = ("web", "worker", "clock", "beat", "migrate")
NGINX = (ROOT / "deploy" / "nginx.conf").read_text()


def test_the_production_services_are_all_there():
    assert set(SERVICES) == {"nginx", "web", "worker", "clock", "beat", "migrate", "postgres",
                             "redis"}


def test_several_web_processes_and_bot_workers_one_beat():
    assert SERVICES["web"]["deploy"]["replicas"] == "${WEB_REPLICAS:-2}"
    assert SERVICES["worker"]["deploy"]["replicas"] == "${WORKER_REPLICAS:-2}"
    assert "deploy" not in SERVICES["beat"]


def test_only_the_balancer_is_published_and_it_balances_the_web_processes():
    published = {name for name, service in SERVICES.items() if service.get("ports")}
    assert published == {"nginx"}
    assert SERVICES["nginx"]["ports"] == ["${HTTP_PORT:-8000}:80"]
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in \
        SERVICES["nginx"]["volumes"]
    assert SERVICES["nginx"]["depends_on"]["web"]["condition"] == "service_healthy"
    assert re.search(r"upstream cardtable_web \{\s+(#[^\n]*\n\s+)*server web:8000;", NGINX)
    assert NGINX.count("proxy_pass http://cardtable_web;") == 2


def test_streams_pass_through_the_balancer_unbuffered_and_held_open():
    stream = NGINX[NGINX.index("location ~ ^/api/v1/(matches/[0-9]+/)?stream/$"):]
    stream = stream[:stream.index("}")]
    assert "proxy_buffering off;" in stream
    assert re.search(r"proxy_read_timeout (\d+)h;", stream)
    assert re.compile(r"^/api/v1/(matches/[0-9]+/)?stream/$").match("/api/v1/matches/12/stream/")
    assert re.compile(r"^/api/v1/(matches/[0-9]+/)?stream/$").match("/api/v1/stream/")


def test_the_web_servers_trust_the_forwarded_address_from_nginx_s_network_alone():
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in NGINX
    assert "proxy_set_header X-Forwarded-Proto $forwarded_proto;" in NGINX
    subnet = COMPOSE["networks"]["front"]["ipam"]["config"][0]["subnet"]
    ipaddress.ip_network(subnet)
    assert SERVICES["nginx"]["networks"] == ["front"]
    assert "front" in SERVICES["web"]["networks"]
    assert SERVICES["web"]["environment"]["TRUSTED_PROXIES"] == f"${{TRUSTED_PROXIES:-{subnet}}}"


def test_metrics_are_scraped_per_process_not_through_the_balancer():
    env = SERVICES["web"]["environment"]
    assert env["PROMETHEUS_MULTIPROC_DIR"] in SERVICES["web"]["tmpfs"]
    assert env["METRICS_PORT"] == "9100"
    assert "location = /metrics" in NGINX
    assert SERVICES["web"]["command"][-4:-2] == ["--config", "python:config.gunicorn"]


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


@pytest.mark.parametrize("name", ["nginx", "web", "worker", "clock", "beat", "postgres",
                                  "redis"])
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
