"""A worker SIGKILLed in the middle of a bot task: once a new worker starts, each move is applied
exactly once, nothing is lost, the ledger stays zero-sum and the match goes on to its end.

The task's test-only delays (bots.tasks: BOT_TEST_DELAY_BEFORE_SUBMIT / _AFTER_SUBMIT) hold the
doomed worker inside the task: before its write is committed (Redis must re-deliver it: no
loss) or after (the re-delivery must change nothing: no duplicate). The session's worker stops
consuming meanwhile, so that only the doomed worker and then its successor see the task.
"""

import signal
import time

import pytest
from django.conf import settings

from bots.tasks import TEST_DELAY_AFTER, TEST_DELAY_BEFORE
from config.celery import app as celery_app
from games.models import Move
from tests.integration.bot_matches import assert_whole, bot_only_match, wait_until_finished
from tests.integration.conftest import start_worker, stop_worker

pytestmark = pytest.mark.django_db(transaction=True)

QUEUE = settings.BOTS_QUEUE
DELAY = "60"  # far longer than the test waits: the worker dies asleep
# The successor's Redis visibility timeout: it re-delivers, when it starts, every task left
# unacknowledged longer than this; its time limits must stay below it.
VISIBILITY = 4
SUCCESSOR_LIMITS = {"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY),
                    "BOT_TASK_SOFT_TIME_LIMIT": "2", "BOT_TASK_TIME_LIMIT": "3"}
DOOMED_LIMITS = {"CELERY_VISIBILITY_TIMEOUT": "90",
                 "BOT_TASK_SOFT_TIME_LIMIT": "70", "BOT_TASK_TIME_LIMIT": "80"}
WAIT = 60
WORKER_ARGS = ("--prefetch-multiplier=1", "-Q", QUEUE)


def wait_for_line(log_path, text: str) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if text in log_path.read_text():
            return
        time.sleep(0.1)
    pytest.fail(f"never logged {text!r}:\n{log_path.read_text()}")


@pytest.fixture
def session_worker_paused(celery_worker):
    replies = celery_app.control.cancel_consumer(QUEUE, destination=[celery_worker], reply=True)
    assert replies, "the session worker did not stop consuming"
    try:
        yield
    finally:
        celery_app.control.add_consumer(QUEUE, destination=[celery_worker], reply=True)


@pytest.mark.parametrize("delay", [TEST_DELAY_BEFORE, TEST_DELAY_AFTER])
def test_a_bot_move_survives_its_worker_being_killed(
    session_worker_paused, django_user_model, tmp_path, delay
):
    owner = django_user_model.objects.create_user("owner", password="x" * 12)
    doomed, _ = start_worker("doomed", tmp_path / "doomed.log", {**DOOMED_LIMITS, delay: DELAY},
                             WORKER_ARGS)
    try:
        match = bot_only_match(owner, "510k", {"rounds": 1}, ["normal"] * 4)
        version = match.version
        wait_for_line(tmp_path / "doomed.log", f"turn {match.pk}@{version}: {delay}")
        applied = Move.objects.filter(match=match, version=version + 1, actor=Move.Actor.BOT)
        assert applied.count() == (1 if delay == TEST_DELAY_AFTER else 0)
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(timeout=30)
        killed = time.monotonic()
    finally:
        if doomed.poll() is None:
            doomed.kill()
            doomed.wait()
    match.refresh_from_db()
    # Killed after its write: every turn of it is kept, one bot move a version (a write holds
    # the turns in a row); killed before: nothing.
    written = Move.objects.filter(match=match, version__gt=version, actor=Move.Actor.BOT)
    assert sorted(written.values_list("version", flat=True)) == list(
        range(version + 1, match.version + 1))
    assert (match.version > version) == (delay == TEST_DELAY_AFTER)

    time.sleep(max(0.0, VISIBILITY + 1 - (time.monotonic() - killed)))
    successor, _ = start_worker("successor", tmp_path / "successor.log", SUCCESSOR_LIMITS,
                                WORKER_ARGS)
    try:
        # The killed turn: applied by the re-delivered task (killed before its submit), or
        # before the kill (after); then the rest of the match, with beat's sweep as in
        # production (a task killed after its submit never queued the turn that followed).
        deadline = time.monotonic() + WAIT
        while applied.count() != 1:
            assert time.monotonic() < deadline, "the killed turn was not re-delivered"
            time.sleep(0.2)
        match = wait_until_finished(match, 180, sweep=True)
    finally:
        stop_worker(successor)
    assert applied.count() == 1
    assert_whole(match)
