"""gunicorn as production runs it (config.workers.UvicornWorker): its workers do not outlive a
master killed with SIGKILL, so the port is free for the master that replaces it; they keep an
idle connection open longer than nginx reuses one."""

import http.client
import os
import re
import signal
import time
from pathlib import Path

from tests.integration.stack import ROOT, Stack, answers, wait_for

WORKERS = 2  # Stack.start_web's
GONE_SECONDS = 15  # the workers look at their master every second


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie waits for whoever adopted it to reap it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_workers_end_when_their_master_is_killed():
    stack, workers = Stack(), []
    try:
        stack.start_web()
        master = stack.processes["web"].pid
        wait_for("the workers", lambda: len(children(master)) == WORKERS)
        workers = children(master)
        stack.kill("web", signal.SIGKILL)
        started = time.monotonic()
        wait_for("the workers to end", lambda: not any(map(running, workers)), GONE_SECONDS)
        print(f"workers gone {time.monotonic() - started:.1f} s after their master")
        assert not answers(stack.web_port)
    finally:
        for pid in filter(running, workers):
            os.kill(pid, signal.SIGKILL)  # only if the test failed: no orphan left behind
        stack.down()


def test_an_idle_connection_stays_open_longer_than_nginx_reuses_it():
    """nginx sends requests down an idle upstream connection for up to its keepalive_timeout: a
    web server that closed it sooner would fail the request (a POST with 502)."""
    nginx_idle = int(re.search(r"keepalive_timeout (\d+)s;",
                               (ROOT / "deploy" / "nginx.conf").read_text())[1])
    stack = Stack()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", stack.start_web(), timeout=10)
        conn.request("GET", "/nowhere/")
        assert conn.getresponse().read()
        time.sleep(nginx_idle + 0.5)
        conn.request("GET", "/nowhere/")  # on the same connection, idle all that time
        assert conn.getresponse().status == 404
        conn.close()
    finally:
        stack.down()
