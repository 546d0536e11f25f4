"""Integration tests: PostgreSQL, Redis and a real Celery worker process. `.ci/run` runs them:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardtable \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 .venv/bin/python -m pytest -m integration

Every test here is marked `integration` and must use a committed database
(`pytest.mark.django_db(transaction=True)`): the worker is another process and sees only
committed rows. It runs against the test database pytest-django creates (test_<name>).
Without those two variables the tests are skipped.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest
from django.conf import settings
from django.core.servers import basehttp

from config.celery import app as celery_app
from games.models import Match

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WORKER_START_SECONDS = 60
WORKER_IDLE_SECONDS = 30

# Django's test server (`live_server`) listens with a backlog of 10: the fifty clients of the
# concurrency test overflow it and the kernel resets some connections, which says nothing of the
# service (gunicorn's backlog is 2,048). Set before the session's server starts.
basehttp.WSGIServer.request_queue_size = 128


def configured() -> bool:
    return (not settings.CELERY_TASK_ALWAYS_EAGER
            and settings.DATABASES["default"]["ENGINE"].endswith("postgresql"))


def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(reason="needs DATABASE_URL=postgres://... and "
                                   "CELERY_BROKER_URL=redis://... (see .ci/run)")
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.integration)
            if not configured():
                item.add_marker(skip)


def worker_database_url() -> str:
    """DATABASE_URL pointed at the test database (pytest-django has renamed it by now)."""
    url = urllib.parse.urlsplit(os.environ["DATABASE_URL"])
    return url._replace(path="/" + settings.DATABASES["default"]["NAME"]).geturl()


def start_worker(label: str, log_path: Path, env: dict | None = None,
                 args: tuple[str, ...] = ()) -> tuple[subprocess.Popen, str]:
    """A worker process on the test database (`env` added to ours), answering; and its name."""
    name = f"{label}-{os.getpid()}@{socket.gethostname()}"
    environment = {**os.environ, "DATABASE_URL": worker_database_url(),
                   "DJANGO_SETTINGS_MODULE": "config.settings", **(env or {})}
    with open(log_path, "w") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
             "--loglevel=INFO", "-n", name, "--without-gossip", "--without-mingle", *args],
            cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT,
        )
    try:
        wait_for_worker(worker, name, log_path)
    except BaseException:
        stop_worker(worker)
        raise
    return worker, name


def stop_worker(worker: subprocess.Popen) -> None:
    if worker.poll() is None:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


@pytest.fixture(scope="session", autouse=True)
def celery_worker(django_db_setup, tmp_path_factory):
    """One worker process for the session, on the test database; yields its name."""
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    worker, name = start_worker("integration", log_path,
                                args=("--include", "tests.integration.probe_tasks"))
    try:
        yield name
    finally:
        stop_worker(worker)


@pytest.fixture(autouse=True)
def quiet_worker(request, celery_worker):
    """After each test, before pytest-django empties the tables: no match left to play, nothing
    queued, the session's worker idle. A bot turn still running when the tables are truncated
    deadlocks with the truncation (seen once in CI, after matches that play themselves)."""
    yield
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("transaction", False):
        return  # the test made its own stack and database, or none
    Match.objects.filter(status__in=Match.OPEN).update(status=Match.Status.ABORTED)
    celery_app.control.purge()
    deadline = time.monotonic() + WORKER_IDLE_SECONDS
    while time.monotonic() < deadline:
        active = celery_app.control.inspect(destination=[celery_worker], timeout=1).active()
        if active is not None and not active.get(celery_worker):
            return
        time.sleep(0.2)
    pytest.fail(f"the session's worker was still busy {WORKER_IDLE_SECONDS}s after the test")


def wait_for_worker(worker: subprocess.Popen, name: str, log_path: Path) -> None:
    deadline = time.monotonic() + WORKER_START_SECONDS
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            pytest.fail(f"the Celery worker exited with {worker.returncode}:\n"
                        f"{log_path.read_text()}")
        if celery_app.control.ping(destination=[name], timeout=1):
            return
    pytest.fail(f"the Celery worker did not answer within {WORKER_START_SECONDS}s:\n"
                f"{log_path.read_text()}")
