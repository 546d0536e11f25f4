"""Turn clocks beside bots' work: how late is a timeout played?

A private deployment (tests/integration/stack.py: its own PostgreSQL and Redis, gunicorn, beat
every 2 s) with the workers as the README runs them: one for the `bots` queue (prefork, two
children) and one for the `clock` queue (one child). `--clocks` matches (gandengyan, a person
against three `normal` bots, a 5 s clock) whose person never acts: their clock runs out, the
server plays the turn (timeout) and puts the seat in 托管; the bench takes the seat back (so that
the next turn of theirs gets a clock again) and never reads the match through the API, so no
read plays an overdue turn: only the sweep and the clock queue do. Three loads, `--seconds`
each (`--workers one`: a single worker, two children, consumes both queues, for comparison):
- idle: the clock matches alone;
- busy: beside 12 matches where a person plays bots as fast as the API lets them (one thread
  each: read, act on their turn);
- unattended: beside 12 matches that play themselves (a person's seat in 托管 against three
  bots: every turn is a bot's, the bots queue never empties).
For each, the timeouts played in that time: count, lateness p50 / p99 (interpolated between
the closest ranks) / max in seconds (the
time its move was written minus the clock's deadline, both read from the database: the deadline
sampled every 50 ms at the version it ran for). Goal: p99 <= 1 s.

Run: `.venv/bin/python bench/clock_lateness.py` (about four minutes; PostgreSQL's server
programs and `redis-server` installed). `--smoke`: a few seconds per load, two clock matches and
three others, no goal enforced (for `.ci/run`). Wall-clock times on a shared machine: quote them
with the load.
"""

import argparse
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import matchplay as play  # noqa: E402
from tests.integration.stack import Stack  # noqa: E402

TURN_SECONDS = 5
LOADS = ("idle", "busy", "unattended")
SAMPLE_SECONDS = 0.05


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="per load")
    parser.add_argument("--clocks", type=int, default=8, help="matches whose clock runs out")
    parser.add_argument("--others", type=int, default=12, help="busy or unattended matches")
    parser.add_argument("--workers", choices=("two", "one"), default="two",
                        help="one: a single worker consumes both queues (-Q bots,clock), "
                        "for comparison")
    parser.add_argument("--smoke", action="store_true", help="a quick run, for CI")
    return parser.parse_args()


def wait_for_a_sweep(seconds: float = 60) -> None:
    """Until a sweep ran after this call: beat and the clock worker are up (clocks that run out
    before the first sweep would be as late as the sweep's start, which says nothing of them)."""
    from games import coordination

    started = time.time()
    while True:
        age = coordination.last_beats([coordination.SWEEP])[coordination.SWEEP]
        if age is not None and age < time.time() - started:
            return
        assert time.time() - started < seconds, f"no sweep within {seconds} s"
        time.sleep(0.1)


def person(base_url: str) -> play.Client:
    client = play.Client(play.http_sender(base_url))
    play.sign_in(client)
    return client


def against_bots(client: play.Client, **options) -> dict:
    """A long gandengyan match, the client against three `normal` bots; its view."""
    return play.create(client, "gandengyan", {"starting_score": 5000, **options},
                       play.bots(3, "normal"))


class Clocks:
    """The matches whose person never acts: records each clock's deadline by version (from the
    database) and takes the seat back whenever the server put it in 托管."""

    def __init__(self, base_url: str, count: int):
        self.players = {}
        for _ in range(count):
            client = person(base_url)
            view = against_bots(client, turn_seconds=TURN_SECONDS)
            self.players[view["id"]] = (client, view["you"])
        self.deadlines: dict[tuple[int, int], float] = {}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        from django.db import connection

        try:
            self._watch_rows()
        finally:
            connection.close()  # this thread's own

    def _watch_rows(self) -> None:
        from games.models import Match

        while not self.stopping.is_set():
            rows = Match.objects.filter(pk__in=list(self.players)).values_list(
                "id", "version", "deadline_at", "autoplay", "status")
            for match_id, version, deadline, autoplay, status in rows:
                if deadline is not None:
                    self.deadlines[(match_id, version)] = deadline.timestamp()
                client, seat = self.players[match_id]
                if status == "active" and str(seat) in autoplay:
                    client.post(f"/matches/{match_id}/autoplay/", {"on": False})
            time.sleep(SAMPLE_SECONDS)

    def lateness(self, since: float, until: float) -> list[float]:
        """Seconds late of each timeout played between `since` and `until` (Unix times)."""
        from datetime import UTC, datetime

        from games.models import Move

        moves = Move.objects.filter(
            match_id__in=list(self.players), reason=Move.Reason.TIMEOUT,
            created_at__gte=datetime.fromtimestamp(since, UTC),
            created_at__lt=datetime.fromtimestamp(until, UTC),
        ).values_list("match_id", "version", "created_at").distinct()
        late = []
        for match_id, version, played in moves:
            deadline = self.deadlines.get((match_id, version - 1))
            if deadline is not None:
                late.append(played.timestamp() - deadline)
        return late

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)


class Busy:
    """People playing bots as fast as the API lets them, one thread each."""

    def __init__(self, base_url: str, count: int):
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self._play, args=(base_url, seed), daemon=True)
                        for seed in range(count)]
        for thread in self.threads:
            thread.start()

    def _play(self, base_url: str, seed: int) -> None:
        rng = random.Random(seed)
        client = person(base_url)
        view = against_bots(client)
        while not self.stopping.is_set():
            if view["status"] != "active":
                view = against_bots(client)
            if view["your_turn"]:
                status, answer = client.post(f"/matches/{view['id']}/act/",
                                             {"expected_version": view["version"],
                                              "action": play.choose(view, rng)})
                if status == 200:
                    view = answer
                    continue
            time.sleep(0.05)
            view = client.get(f"/matches/{view['id']}/")[1]

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=30)


class Unattended:
    """Matches that play themselves; stopped by taking their person's seat back (no clock: the
    match then waits for them)."""

    def __init__(self, base_url: str, count: int):
        self.client = person(base_url)
        self.ids = play.self_playing(self.client, count)

    def stop(self) -> None:
        for match_id in self.ids:
            self.client.post(f"/matches/{match_id}/autoplay/", {"on": False})


def measure(base_url: str, clocks: Clocks, load: str, others: int, seconds: float) -> list[float]:
    """The lateness of every timeout played under `load` for `seconds`."""
    running = {"idle": None, "busy": Busy, "unattended": Unattended}[load]
    beside = running(base_url, others) if running else None
    try:
        since = time.time()
        time.sleep(seconds)
        until = time.time()
    finally:
        if beside is not None:
            beside.stop()
    time.sleep(1)  # the last timeouts' rows are written
    return clocks.lateness(since, until)


def quantiles(late: list[float]) -> dict[str, float]:
    """p50, p99 (interpolated between the closest ranks, as numpy's default) and max."""
    if len(late) < 2:
        return {"max": late[0]} if late else {}
    cuts = statistics.quantiles(late, n=100, method="inclusive")
    return {"p50": cuts[49], "p99": cuts[98], "max": max(late)}


def deployment(workers: str) -> Stack:
    """The stack, its database migrated, with the workers as the README runs them (or one
    worker for both queues)."""
    stack = Stack(RECOVERY_SWEEP_SECONDS="2", TURN_RECOVERY_SECONDS="5",
                  BOT_TASK_SOFT_TIME_LIMIT="10", BOT_TASK_TIME_LIMIT="15").prepare()
    try:
        stack.start_web()
        if workers == "one":
            stack.start_worker(as_in_production=True, queues=("bots", "clock"))
        else:
            stack.start_worker(as_in_production=True, name="worker", queues=("bots",))
            stack.start_worker(as_in_production=True, name="clock", queues=("clock",))
        stack.start_beat()
    except BaseException:
        stack.down()
        raise
    return stack


def main() -> int:
    args = arguments()
    if args.smoke:
        args.seconds, args.clocks, args.others = 8, 2, 3
    stack = deployment(args.workers)
    try:
        os.environ.update({k: v for k, v in stack.env.items()
                           if k.startswith(("DATABASE_", "CELERY_", "DJANGO_"))})
        import django

        django.setup()
        wait_for_a_sweep()
        clocks = Clocks(stack.url, args.clocks)
        print(f"{args.clocks} matches with a {TURN_SECONDS} s clock, {args.others} others, "
              f"{args.seconds:g} s per load, {args.workers} worker(s); lateness of each timeout "
              "in seconds")
        worst = 0.0
        for load in LOADS:
            late = measure(stack.url, clocks, load, args.others, args.seconds)
            figures = quantiles(late)
            shown = "  ".join(f"{name} {value:.3f}" for name, value in figures.items())
            print(f"{load:>10}: {len(late):4d} timeouts  {shown}", flush=True)
            worst = max(worst, figures.get("p99", 0.0))
        clocks.stop()
    except BaseException:
        print(stack.logs())
        raise
    finally:
        stack.down()
    print(f"worst p99 {worst:.3f} s (goal <= 1 s)")
    return 0 if args.smoke or worst <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
