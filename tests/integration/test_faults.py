"""Faults injected into a private deployment (tests/integration/stack.py: its own PostgreSQL,
Redis, web server, worker and beat): whatever dies or restarts, every match moves again soon
after, no turn is lost or played twice, and no request answers 500.

Matches "run" by themselves: a person opens a gandengyan match against bots and hands their seat
to the server (托管), so every seat is played by the worker. Each bot turn sleeps a little before
it is submitted (the tasks' test-only delay), so that turns are in flight when a part dies."""

import random
import signal
import time

import pytest

from bots.tasks import TEST_DELAY_BEFORE
from tests.integration.stack import Stack
from tests.matchplay import Client, choose, create, http_sender, self_playing, sign_in

MATCHES = 6
RECOVERY_SECONDS = 30


@pytest.fixture
def stack():
    stack = Stack(**{TEST_DELAY_BEFORE: "0.1"}).up()
    try:
        yield stack
    finally:
        print(stack.logs())  # shown when the test failed
        stack.down()


def client(stack: Stack) -> Client:
    person = Client(http_sender(stack.url))
    sign_in(person)
    return person


def running_matches(stack: Stack) -> tuple[Client, list[int]]:
    person = client(stack)
    return person, self_playing(person, MATCHES)


def versions(person: Client, ids: list[int]) -> dict[int, int]:
    found = {}
    for match_id in ids:
        status, view = person.get(f"/matches/{match_id}/")
        assert status == 200, view
        found[match_id] = view["version"]
    return found


def all_move_on(person: Client, ids: list[int], since: dict[int, int] | None = None,
                seconds: float = RECOVERY_SECONDS) -> float:
    """Wait until every match's version has moved past `since` (now, if not given); how long it
    took. Fails, naming the matches that did not move, after `seconds`."""
    since = since or versions(person, ids)
    started = time.monotonic()
    waiting = set(ids)
    while waiting and time.monotonic() - started < seconds:
        waiting = {m for m, v in versions(person, sorted(waiting)).items() if v <= since[m]}
        time.sleep(0.2)
    assert not waiting, f"matches {sorted(waiting)} did not move within {seconds}s"
    return time.monotonic() - started


def answering_again(person: Client, ids: list[int]) -> None:
    """Wait until every match reads 200 in one pass: until then each answer is 200 or 503 (each
    web process's pool reconnects on its own, and a pooled connection from before the outage
    fails its request once)."""
    started = time.monotonic()
    while time.monotonic() - started < RECOVERY_SECONDS:
        statuses = [person.get(f"/matches/{match_id}/")[0] for match_id in ids]
        assert set(statuses) <= {200, 503}, statuses
        if set(statuses) == {200}:
            return
        time.sleep(0.5)
    raise AssertionError(f"still answering {statuses} {RECOVERY_SECONDS}s after the outage")


def assert_whole(stack: Stack) -> None:
    """Every match's log replays to its snapshot, no version holds two chosen moves, the events
    run without a gap and every round's ledger sums to zero."""
    done = stack.manage("verify_matches")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_worker_killed_with_turns_in_flight(stack):
    person, ids = running_matches(stack)
    all_move_on(person, ids)
    stack.kill("worker", signal.SIGKILL)
    frozen = versions(person, ids)
    time.sleep(1)
    stack.start_worker()
    all_move_on(person, ids, frozen)
    assert_whole(stack)


@pytest.mark.parametrize("as_in_production", [False, True])
def test_redis_restarted_without_persistence(stack, as_in_production):
    # Also with the worker as the README and compose run it (prefork, gossip and mingle on): its
    # main process sees Redis go while its children run turns, and lives on (bots/broker.py).
    if as_in_production:
        stack.kill("worker", signal.SIGTERM)
        stack.env[TEST_DELAY_BEFORE] = "1"  # both children always inside a turn
        stack.start_worker(as_in_production=True)
    person, ids = running_matches(stack)
    all_move_on(person, ids)
    stack.redis("shutdown", "nosave")
    stack.processes.pop("redis").wait(timeout=30)
    stack.start_redis()
    all_move_on(person, ids)
    assert stack.processes["worker"].poll() is None, "the worker died with Redis"
    assert_whole(stack)


def test_the_queue_deleted_by_hand_the_sweep_alone_brings_the_matches_back(stack):
    person, ids = running_matches(stack)
    all_move_on(person, ids)
    stack.kill("worker", signal.SIGTERM)
    time.sleep(1)
    stack.redis("del", "bots", "clock")  # whatever was queued is gone
    stack.start_worker()
    all_move_on(person, ids)
    assert_whole(stack)


def test_postgresql_stopped_for_30_seconds(stack):
    person, ids = running_matches(stack)
    all_move_on(person, ids)
    stack.stop_postgres()
    statuses = set()
    outage = time.monotonic()
    while time.monotonic() - outage < 30:
        for match_id in ids:
            status, data = person.get(f"/matches/{match_id}/")
            statuses.add(status)
            assert status == 503 and data["error"]["code"] == "unavailable", data
        time.sleep(1)
    stack.start_postgres()
    assert statuses == {503}
    answering_again(person, ids)
    all_move_on(person, ids)
    assert_whole(stack)


def test_a_person_who_stops_acting_is_played_for_and_takes_the_seat_back(stack):
    first, second = client(stack), client(stack)
    # Two rounds: the server plays a seat in 托管 (and forced moves) at once, and a busy machine
    # reads late, so the seat may be taken back with nothing left to choose in its round; the
    # next deal gives it a choice, and so a second timeout.
    view = create(first, "510k", {"players": 2, "rounds": 2, "turn_seconds": 5},
                  [{"type": "human"}, {"type": "human"}])
    second.post("/matches/join/", {"code": view["invite_code"]})
    match_id, rng = view["id"], random.Random(7)
    people = {0: first, 1: second}
    absent = 1  # seat 1 stops acting; seat 0 plays on
    took_back = False
    started = time.monotonic()
    while time.monotonic() - started < 240:
        status, view = first.get(f"/matches/{match_id}/")
        assert status == 200, view
        if view["status"] == "finished":
            break
        seat_state = view["seats"][absent]["autoplay"]
        if seat_state == "timeout" and not took_back:
            # The server played for the absent seat and put it in 托管: it comes back once.
            status, back = people[absent].post(f"/matches/{match_id}/autoplay/", {"on": False})
            assert status == 200 and back["seats"][absent]["autoplay"] is None
            took_back = True
            continue
        if view["your_turn"]:
            status, _ = first.post(f"/matches/{match_id}/act/",
                                   {"expected_version": view["version"],
                                    "action": choose(view, rng)})
            assert status in (200, 409)
        time.sleep(0.2)
    assert view["status"] == "finished", view
    assert took_back
    status, events = first.get(f"/matches/{match_id}/events/")
    timeouts = [e for e in events["events"] if e.get("reason") == "timeout"
                and e["type"] == "autoplay_on"]
    assert len(timeouts) == 2 and all(e["seat"] == absent for e in timeouts)
    assert_whole(stack)
