"""Beat on real processes: two beats started at once send the sweep once per interval (one holds
the lease in Redis, the other stands by and takes over when the first dies), and readiness sees
the sweep stop with beat. Also the queued marks in the real Redis."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from games import coordination
from tests.integration.conftest import ROOT, stop_worker, worker_database_url

pytestmark = pytest.mark.django_db(transaction=True)

INTERVAL = 0.5  # RECOVERY_SWEEP_SECONDS of the beats started here
LEASE = 1.5  # their BEAT_LEASE_SECONDS
SENT = re.compile(r"Sending due task recover-turns")


def start_beat(tmp_path: Path, name: str, interval: float = INTERVAL,
               lease: float = LEASE) -> tuple[subprocess.Popen, Path]:
    """A beat process on the test database, sweeping every `interval` seconds; its log."""
    log_path = tmp_path / f"{name}.log"
    env = {**os.environ, "DATABASE_URL": worker_database_url(),
           "DJANGO_SETTINGS_MODULE": "config.settings",
           "RECOVERY_SWEEP_SECONDS": str(interval), "BEAT_LEASE_SECONDS": str(lease)}
    with open(log_path, "w") as log:
        beat = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
             "--schedule", str(tmp_path / f"{name}-schedule")],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    return beat, log_path


def sends(log_path: Path) -> int:
    return len(SENT.findall(log_path.read_text()))


def wait_until(what: str, check, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"{what} within {seconds}s"
        time.sleep(0.1)


@pytest.fixture
def two_beats(tmp_path):
    started = [start_beat(tmp_path, "first"), start_beat(tmp_path, "second")]
    try:
        yield started
    finally:
        for beat, _ in started:
            stop_worker(beat)
        for _, log_path in started:
            print(log_path.read_text()[-3000:])  # shown when the test failed


def test_two_beats_send_the_sweep_once_per_interval_and_one_takes_over(two_beats):
    logs = [log_path for _, log_path in two_beats]
    wait_until("a beat sending the sweep", lambda: sum(map(sends, logs)) >= 2)
    before = [sends(log_path) for log_path in logs]
    window = 8.0
    time.sleep(window)
    counted = [sends(log_path) - sent for log_path, sent in zip(logs, before, strict=True)]
    # One beat sends, about every INTERVAL; the other sends nothing. (Not fewer than half the
    # intervals: a loaded machine delays beat; never more than one beat's worth.)
    assert sorted(counted)[0] == 0, counted
    assert window / INTERVAL / 2 <= sum(counted) <= window / INTERVAL + 2, counted

    leader = counted.index(max(counted))
    two_beats[leader][0].send_signal(signal.SIGKILL)  # it cannot give the lease back
    two_beats[leader][0].wait(timeout=30)
    follower = logs[1 - leader]
    taken = sends(follower)
    killed = time.monotonic()
    wait_until("the other beat taking over", lambda: sends(follower) > taken)
    assert time.monotonic() - killed <= LEASE + 5 * INTERVAL + 5  # generous: a loaded machine


def test_readiness_sees_the_sweep_stop_with_beat(api_client, tmp_path, settings):
    settings.SWEEP_STALE_SECONDS = 3
    beat, log_path = start_beat(tmp_path, "only")
    try:
        wait_until("the sweep running (the session's worker consumes the clock queue)",
                   lambda: api_client.get("/api/v1/health/ready/").status_code == 200)
        ready = api_client.get("/api/v1/health/ready/").json()
        assert ready["sweep"] == ready["bots_worker"] == ready["clock_worker"] == "ok"
    finally:
        stop_worker(beat)
        print(log_path.read_text()[-3000:])
    wait_until("readiness failing",
               lambda: api_client.get("/api/v1/health/ready/").status_code == 503, seconds=30)
    answer = api_client.get("/api/v1/health/ready/").json()
    assert answer["sweep"] == "late" and answer["sweep_seconds_ago"] > 3
    assert answer["database"] == answer["redis"] == "ok"


def test_a_turn_is_marked_queued_once_until_its_task_starts():
    turn = (10**9, 7)  # no such match: only the mark is at stake
    coordination.clear_queued(*turn)
    assert coordination.mark_queued(*turn) is True
    assert coordination.mark_queued(*turn) is False
    key = f"{coordination.PREFIX}queued:{turn[0]}:{turn[1]}"
    assert 0 < coordination.client().ttl(key) <= settings.TURN_QUEUED_SECONDS
    coordination.clear_queued(*turn)
    assert coordination.mark_queued(*turn) is True
    coordination.clear_queued(*turn)
