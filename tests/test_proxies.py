"""TRUSTED_PROXIES, for real: under `manage.py serve` and under gunicorn's worker (each as
started in production, on a fresh SQLite file), a made-up X-Forwarded-For sent from the
loopback is throttled when no proxy is trusted (uvicorn trusted the loopback by default and
rewrote the client address before Django saw it), and with the loopback trusted as the proxy,
the address it appends is the one counted."""

import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.embedded import ROOT, free_port, migrated, serve
from tests.integration.stack import answers, wait_for

LOGINS = 12  # the login rate is 10 a minute per client address
WRONG = b'{"username": "nobody", "password": "wrong password"}'


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("proxies")
    return folder, migrated(folder)


def gunicorn(env: dict, log) -> tuple[subprocess.Popen, int]:
    port = free_port()
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.asgi:application", "--worker-class",
             "config.workers.UvicornWorker", "--bind", f"127.0.0.1:{port}", "--workers", "1",
             "--no-control-socket"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    wait_for("gunicorn", lambda: answers(port))
    return process, port


@pytest.fixture(params=["serve", "gunicorn"])
def server(request, installed):
    folder, env = installed

    def start(trusted: str) -> int:
        started = (serve if request.param == "serve" else gunicorn)(
            {**env, "TRUSTED_PROXIES": trusted}, folder / f"{request.param}.log")
        request.addfinalizer(lambda: (started[0].terminate(), started[0].wait(timeout=30)))
        return started[1]

    return start


def login(port: int, forwarded_for: str) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/auth/login/", data=WRONG, method="POST",
        headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded_for})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as err:
        return err.code


def test_a_made_up_forwarded_address_from_the_loopback_is_throttled_when_no_proxy_is_trusted(
        server):
    port = server("")
    statuses = [login(port, f"203.0.113.{n}") for n in range(LOGINS)]
    assert statuses[:10] == [401] * 10 and statuses[10:] == [429] * (LOGINS - 10)


def test_the_address_a_trusted_proxy_appends_is_the_one_counted(server):
    port = server("127.0.0.1")
    assert {login(port, f"10.9.9.9, 203.0.113.{n}") for n in range(LOGINS)} == {401}
    statuses = [login(port, f"10.9.9.{n}, 198.51.100.1") for n in range(LOGINS)]
    assert statuses[10:] == [429] * (LOGINS - 10)  # what the client wrote first: nothing
