"""What the bots let a machine hold, per level.

1. Bot decisions per core per second: every decision of whole rounds that `normal` plays (both
   rulesets, four seats), each level deciding on the same positions, timed in this process's CPU
   time (`hard` with its default budget).
2. The bot-reply wait: on a private deployment (tests/integration/stack.py: its own PostgreSQL and
   Redis, a web server, one Celery worker as production runs it: prefork, two processes), 10 and
   then 50 gandengyan matches at once, each a person against three bots of one level; the person
   acts on every turn, at once, and the wait is the time from the act's answer to the live
   notice that it is the person's turn again (every bot reply committed). p50 and p99 per level
   and number of matches (goal at 10 matches: `normal` p99 ≤ 1 s, `hard` p99 ≤ 3 s). `hard`
   turns that waited past BOT_HARD_START_SECONDS in the queue are played by `normal` (their
   moves say `late`): how many were is printed too.

Prints one line per figure. Run: `.venv/bin/python bench/bot_capacity.py [--acts N] [--slice S]
[--smoke]` (`--slice`: the worker's BOT_TASK_SLICE_SECONDS; the default: the setting's)
(about two minutes on a quiet machine; PostgreSQL's server programs and `redis-server` on the
machine). Times are this machine's, whatever else runs on it: the load average is printed first.
"""

import json
import os
import random
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
for name in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL"):  # part 1: no services
    os.environ.pop(name, None)

import django  # noqa: E402

django.setup()

from bench import smoke  # noqa: E402
from bench.bots import whole_rounds  # noqa: E402
from bots.simulation import percentile  # noqa: E402
from bots.strategies import observe, strategies  # noqa: E402

LEVELS = ("random", "normal", "hard")
RULESETS = ("gandengyan", "510k")
MATCHES = (10, 50)
ACTS = 8  # the person's acts per match
WAIT_SECONDS = 120


def decisions_per_cpu_second(rounds: int, positions: int) -> dict[tuple[str, str], float]:
    """(ruleset, level) → decisions per CPU second of this thread, on the same positions."""
    found = {}
    for ruleset in RULESETS:
        chosen = list(whole_rounds(ruleset, rounds, 23))
        chosen = random.Random(5).sample(chosen, min(positions, len(chosen)))
        levels = strategies(ruleset)
        for level in LEVELS:
            rng = random.Random(7)
            cpu = time.thread_time()
            for engine, state in chosen:
                levels[level](observe(ruleset, state, engine.to_act(state)), rng)
            found[ruleset, level] = len(chosen) / (time.thread_time() - cpu)
    return found


class Notices:
    """When each match last told, through the live notices, that its person is to act."""

    def __init__(self, redis_url: str):
        import redis

        self.client = redis.Redis.from_url(redis_url)
        self.pubsub = self.client.pubsub()
        self.pubsub.psubscribe("cardtable:*:match:*")
        self.turns: dict[int, tuple[int, float]] = {}  # match → (version, when)
        self.changed = threading.Condition()
        self.stopping = threading.Event()
        self.listener = threading.Thread(target=self._listen)
        self.listener.start()

    def _listen(self) -> None:
        while not self.stopping.is_set():
            message = self.pubsub.get_message(timeout=0.2)
            if message is None or message["type"] != "pmessage":
                continue
            notice = json.loads(message["data"])
            if notice["to_act"] == 0 or notice["status"] != "active":
                with self.changed:
                    self.turns[notice["match"]] = (notice["version"], time.monotonic())
                    self.changed.notify_all()

    def stop(self) -> None:
        self.stopping.set()
        self.listener.join()
        self.pubsub.close()
        self.client.close()

    def wait(self, match_id: int, after: int) -> float | None:
        """When the person of `match_id` was next to act past version `after` (None: never)."""
        deadline = time.monotonic() + WAIT_SECONDS
        with self.changed:
            while True:
                version, at = self.turns.get(match_id, (0, 0.0))
                if version > after:
                    return at
                if not self.changed.wait(max(0.0, deadline - time.monotonic())):
                    return None


def play(person, notices: Notices, match_id: int, acts: int, rng: random.Random,
         waits: list[float]) -> None:
    """The person's `acts` acts on `match_id`, each as soon as it is their turn."""
    for _ in range(acts):
        status, view = person.get(f"/matches/{match_id}/")
        if view["status"] != "active":
            return
        if not view["your_turn"]:
            if notices.wait(match_id, view["version"]) is None:
                return
            continue
        status, after = person.post(f"/matches/{match_id}/act/", {
            "expected_version": view["version"], "action": rng.choice(view["legal_actions"])})
        answered = time.monotonic()
        if status != 200 or after["your_turn"] or after["status"] != "active":
            continue  # no bot to wait for
        replied = notices.wait(match_id, after["version"])
        if replied is None:
            print(f"  match {match_id}: no reply within {WAIT_SECONDS} s")
            return
        waits.append(max(0.0, replied - answered))


def reply_waits(stack, level: str, count: int, acts: int) -> tuple[list[float], int, int]:
    """The waits of `count` matches at once against `level` bots; the late moves of theirs,
    and every bot move."""
    from tests.matchplay import Client, bots, create, http_sender, sign_in

    person = Client(http_sender(stack.url))
    sign_in(person)
    notices = Notices(stack.env["CELERY_BROKER_URL"])
    ids = [create(person, "gandengyan", {"starting_score": 5000, "turn_seconds": None},
                  bots(3, level))["id"] for _ in range(count)]
    waits: list[float] = []
    threads = [threading.Thread(target=play, args=(person, notices, m, acts, random.Random(m),
                                                   waits)) for m in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    import psycopg

    with psycopg.connect(stack.env["DATABASE_URL"]) as conn:
        late, moves = conn.execute(
            "SELECT count(*) FILTER (WHERE reason = 'late'), count(*) FROM games_move"
            " WHERE actor = 'bot' AND match_id = ANY(%s)", [ids]).fetchone()
    notices.stop()
    return waits, late, moves


def main() -> None:
    parser = smoke.parser(__doc__)
    parser.add_argument("--acts", type=int, default=ACTS, help="the person's acts per match")
    parser.add_argument("--slice", help="the worker's BOT_TASK_SLICE_SECONDS")
    args = parser.parse_args()
    rounds, positions = (1, 10) if args.smoke else (6, 150)
    counts, acts = ((2,), 2) if args.smoke else (MATCHES, args.acts)
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    for (ruleset, level), rate in decisions_per_cpu_second(rounds, positions).items():
        print(f"{ruleset} {level}: {rate:.1f} decisions per CPU second")

    from django.conf import settings

    from tests.integration.stack import Stack

    print(f"a bot task's slice: {args.slice or settings.BOT_TASK_SLICE_SECONDS} s")
    stack = Stack(**({"BOT_TASK_SLICE_SECONDS": args.slice} if args.slice else {}))
    try:
        stack.prepare()
        stack.start_web()
        stack.start_worker(as_in_production=True)
        stack.wait_for_worker()
        for level in ("normal", "hard"):
            for count in counts:
                waits, late, moves = reply_waits(stack, level, count, acts)
                p50, p99 = (percentile(waits, q) * 1000 for q in (0.5, 0.99))
                print(f"{level}, {count} matches at once: bot-reply wait p50 {p50:.0f} ms, "
                      f"p99 {p99:.0f} ms ({len(waits)} waits; {late} of {moves} bot moves "
                      f"late: played by normal)")
        print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    finally:
        stack.down()


if __name__ == "__main__":
    main()
