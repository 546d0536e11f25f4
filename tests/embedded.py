"""The embedded mode for real, as `make run` starts it: `manage.py migrate` on a fresh SQLite
file, then `manage.py serve` in a process of its own, on a free port."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.test_config import environment_variables

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def migrated(folder: Path) -> dict[str, str]:
    """The environment of a server on a fresh SQLite file in `folder`, migrated (nothing else
    of this process's settings)."""
    env = {k: v for k, v in os.environ.items() if k not in environment_variables()}
    env.update(DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
               DJANGO_SETTINGS_MODULE="config.settings")
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env,
                   check=True, capture_output=True, timeout=300)
    return env


def serve(env: dict[str, str], log: Path) -> tuple[subprocess.Popen, int]:
    """`manage.py serve` on a free port, once it answers: the process and its port."""
    port = free_port()
    with open(log, "w") as out:
        process = subprocess.Popen([sys.executable, "manage.py", "serve", f"127.0.0.1:{port}"],
                                   cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    for _ in range(240):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health/", timeout=2)
            return process, port
        except OSError:
            assert process.poll() is None, log.read_text()
            time.sleep(0.5)
    process.kill()
    raise AssertionError(f"the server did not answer: {log.read_text()}")


def send(url: str, method: str = "GET", body=None, token: str | None = None):
    """One JSON request: (status, body)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                     method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as err:
        content = err.read()
        try:
            return err.code, json.loads(content)
        except ValueError:
            return err.code, content[:300]
