"""Lost turns: what the recovery sweep costs, and how long a lost turn waits for it.

1. The sweep's cost. Active matches (10,000 by default, also 1,000 and 100,000 with `--sizes`)
   in PostgreSQL, every one with a turn due in an hour or two (a bot's turn or a clock:
   the worst case for the sweep's index, which holds every such row), 0, 10 or 100 of them due
   now. Prints the p50 over `--runs` of the claim's select (the due rows, in due order, skipping
   locked ones: the query the index serves), of the whole claim (`services.due_claim`: that
   select and the update pushing the rows' due time on, one transaction) and of a whole
   `recover_turns` run (the claim, then one task published per due match to a real Redis:
   `--broker`, DB 10 by default, its queue emptied after each run), then the claim's plan
   (EXPLAIN ANALYZE of the very query the claim ran). The claim must read the partial index
   `match_due`: the script exits with 1 if its plan scans the table.

2. The time from a lost turn to its recovery, on a private deployment (its own PostgreSQL, Redis,
   web server, worker and beat: tests/integration/stack.py) run with the default settings (a
   sweep every 2 s; a server turn due again 5 s after it was queued). `--matches` matches play
   themselves (a person against three bots, their own seat in 托管, every turn sleeping 0.02 s
   before it is submitted so that turns are in flight). Each fault is made `--rounds` times:
   - worker killed: the worker is killed with SIGKILL in the middle of a turn and restarted at
     once;
   - queue deleted: the queue's Redis key is deleted while everything runs;
   - Redis restarted: Redis is shut down without saving (no persistence) and started again.
   For each, the seconds from the fault until each match moves again (its version goes past the
   one it had once the fault was made), p50 and max over every match of every round; "no fault"
   is the same wait with nothing done, for comparison (one worker plays the matches in turn, up
   to 40 turns a task). Then `manage.py verify_matches`: no turn lost or played twice.

Run: `.venv/bin/python bench/recovery.py` (about two minutes; PostgreSQL on 127.0.0.1:5432, user
postgres, Redis on 127.0.0.1:6379, and PostgreSQL's server programs and `redis-server` on the
machine for the deployment; it creates and drops the database `cardtable_bench_recovery`).
`--part sweep` or `--part faults` runs one part only; `--sizes 1000,10000,100000` (two more
minutes, most of it writing the rows), `--runs`, `--matches` and `--rounds` scale it up;
`--smoke` scales it down to a quick run. Times
are wall-clock on this machine, whatever else runs on it: quote them with the load.
"""

import argparse
import os
import signal
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import smoke  # noqa: E402

PG = "postgres://postgres@127.0.0.1:5432"
BROKER = "redis://127.0.0.1:6379/10"
SIZES = (10_000,)
DUE = (0, 10, 100)
RUNS = 30
MATCHES = 4
ROUNDS = 3
# Seconds each server turn sleeps before it is submitted on the deployment (the tasks' test-only
# delay), so that turns are in flight when a part dies; short, so that with no fault a match
# waits little for the one worker, beside what a recovery takes.
TURN_DELAY = "0.02"
WAIT_SECONDS = 120  # a match that has not moved by then is reported as stuck


def arguments() -> argparse.Namespace:
    parser = smoke.parser(__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--part", choices=("sweep", "faults", "all"), default="all")
    parser.add_argument("--database", default="cardtable_bench_recovery",
                        help="created and dropped by the sweep's part")
    parser.add_argument("--broker", default=BROKER, help="the Redis the sweep publishes to")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)),
                        help="active matches in the database, comma-separated")
    parser.add_argument("--runs", type=int, default=RUNS, help="timed runs of each measure")
    parser.add_argument("--matches", type=int, default=MATCHES)
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="times each fault is made")
    parser.add_argument("--sweep-seconds", default="2", help="RECOVERY_SWEEP_SECONDS")
    parser.add_argument("--recovery-seconds", default="5", help="TURN_RECOVERY_SECONDS")
    args = parser.parse_args()
    if args.smoke:
        args.sizes, args.runs, args.matches, args.rounds = "200", 2, 1, 1
    return args


# -- 1. the sweep's cost -----------------------------------------------------------------------


def recreate_database(name: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")


def drop_database(name: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def snapshot() -> dict:
    """A real snapshot (a four-player gandengyan round just dealt), so that rows are the size
    they are in play and a scan of the table costs what it would."""
    from games.engine.registry import get_ruleset

    engine = get_ruleset("gandengyan")
    state = engine.start_round(engine.new_match(engine.parse_options({}), [False] * 4), "bench")
    return engine.to_json(state)


def add_active(owner, count: int, start: int, state: dict) -> None:
    """`count` active matches, rows written directly (the sweep reads only the match rows), each
    with a turn due in an hour or two: after the bench, however long the inserts take."""
    from django.utils import timezone

    from games.models import Match

    now = timezone.now()
    Match.objects.bulk_create(
        (Match(ruleset="gandengyan", options={"decks": 1, "players": 4}, options_hash="x",
               status=Match.Status.ACTIVE, owner=owner, invite_code=f"R{start + i:011d}",
               version=3, snapshot=state, round_number=1, to_act=(start + i) % 4,
               bot_seats=[1, 2, 3], due_at=now + timedelta(hours=1, seconds=(start + i) % 3600))
         for i in range(count)), batch_size=2000)


def timed_p50(run, prepare, runs: int) -> float:
    """The median of `runs` timed calls of `run()` (ms), each after an untimed `prepare()`."""
    times = []
    for _ in range(runs + 3):  # the first few warm the caches and the connection up
        prepare()
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times[3:]) * 1000


def set_due(ids: list[int], due: int) -> None:
    """The first `due` of `ids` due a second ago, the others in an hour (like every other)."""
    from django.utils import timezone

    from games.models import Match

    now = timezone.now()
    Match.objects.filter(pk__in=ids[:due]).update(due_at=now - timedelta(seconds=1))
    Match.objects.filter(pk__in=ids[due:]).update(due_at=now + timedelta(hours=1))


def timed_sweep(ids: list[int], due: int, runs: int) -> tuple[float, float, float]:
    """p50 ms of the claim's select, of the whole claim (its transaction: the select, then the
    update of the rows it found) and of a whole recover_turns, `due` of `ids` due before each
    run."""
    from django.conf import settings
    from django.db import connection

    from bots.tasks import SWEEP_BATCH, recover_turns
    from config.celery import app
    from games import coordination, services

    selects = []

    def timed_select(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            if "FOR UPDATE" in sql:
                selects.append(time.perf_counter() - started)

    def claim():
        with connection.execute_wrapper(timed_select):
            claimed = services.due_claim(lease=settings.TURN_RECOVERY_SECONDS,
                                         limit=SWEEP_BATCH)
        assert len(claimed) == due, claimed

    def sweep():
        assert recover_turns() == due

    def before_sweep():
        app.control.purge()  # nobody consumes here: the queue would only grow
        for match_id in ids[:due]:  # else the turns count as queued still, and are not sent
            coordination.clear_queued(match_id, 3)
        set_due(ids, due)

    claim_ms = timed_p50(claim, lambda: set_due(ids, due), runs)
    select_ms = statistics.median(selects[-runs:]) * 1000
    sweep_ms = timed_p50(sweep, before_sweep, runs)
    app.control.purge()
    return select_ms, claim_ms, sweep_ms


def claim_plan() -> list[str]:
    """EXPLAIN ANALYZE of the claim's select, as the claim itself sent it, in a transaction
    rolled back (it locks the rows it reads)."""
    from django.conf import settings
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from bots.tasks import SWEEP_BATCH
    from games import services

    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        services.due_claim(lease=settings.TURN_RECOVERY_SECONDS, limit=SWEEP_BATCH)
        transaction.set_rollback(True)
    select = next(q["sql"] for q in queries.captured_queries if "FOR UPDATE" in q["sql"])
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {select}")
        plan = [row[0] for row in cursor.fetchall()]
        transaction.set_rollback(True)
    return plan


def sweep_cost(database: str, broker: str, sizes: list[int], runs: int) -> bool:
    """Prints the figures; False if a claim's plan scans the table."""
    os.environ.update(DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0",
                      SECRET_KEY="bench-only-secret-key-" + "x" * 40, ALLOWED_HOSTS="testserver",
                      SECURE_SSL_REDIRECT="0", DATABASE_URL=f"{PG}/{database}",
                      CELERY_BROKER_URL=broker, LOG_LEVEL="ERROR")
    os.environ.pop("CACHE_URL", None)
    recreate_database(database)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, connections

    from accounts.models import User
    from games.models import Match

    print(f"The sweep's cost: p50 of {runs} runs, the broker a real Redis ({broker}, emptied "
          f"after each run)")
    indexed, made = True, 0
    try:
        call_command("migrate", verbosity=0)
        owner = User.objects.create_user("bench-owner")
        state = snapshot()
        for size in sorted(sizes):
            add_active(owner, size - made, made, state)
            made = size
            with connection.cursor() as cursor:
                cursor.execute(f"VACUUM ANALYZE {Match._meta.db_table}")
            ids = list(Match.objects.order_by("?").values_list("pk", flat=True)[:max(DUE)])
            for due in DUE:
                select_ms, claim_ms, sweep_ms = timed_sweep(ids, due, runs)
                print(f"{size:>7,} active, {due:>3} due: the claim's select {select_ms:5.2f} ms,"
                      f" the claim {claim_ms:6.2f} ms, recover_turns {sweep_ms:6.2f} ms")
            set_due(ids, max(DUE))  # the plan shown is the one with the most due
            plan = claim_plan()
            set_due(ids, 0)
            scans = any("Seq Scan" in line for line in plan)
            uses_index = any("match_due" in line for line in plan)
            indexed = indexed and uses_index and not scans
            print(f"  the claim's plan with {size:,} active, {max(DUE)} due "
                  f"({'index match_due' if uses_index and not scans else 'A TABLE SCAN'}):")
            for line in plan:
                print("    " + line)
    finally:
        connections.close_all()
        drop_database(database)
    return indexed


# -- 2. the time from a lost turn to its recovery ----------------------------------------------


def running_matches(stack, count: int):
    """A signed-in client and `count` matches that play themselves."""
    from tests.matchplay import Client, http_sender, self_playing, sign_in

    person = Client(http_sender(stack.url))
    sign_in(person)
    return person, self_playing(person, count)


def versions(person, ids: list[int]) -> dict[int, int]:
    found = {}
    for match_id in ids:
        status, view = person.get(f"/matches/{match_id}/")
        found[match_id] = view["version"] if status == 200 else None
    return found


def waits(person, ids: list[int], since: dict[int, int], started: float) -> list[float]:
    """Seconds from `started` until each match's version went past `since`."""
    moved: dict[int, float] = {}
    while len(moved) < len(ids) and time.monotonic() - started < WAIT_SECONDS:
        for match_id, version in versions(person, [m for m in ids if m not in moved]).items():
            if version is not None and version > since[match_id]:
                moved[match_id] = time.monotonic() - started
        time.sleep(0.05)
    stuck = [m for m in ids if m not in moved]
    if stuck:
        print(f"  matches {stuck} did not move within {WAIT_SECONDS} s")
    return [moved.get(m, float("inf")) for m in ids]


def kill_worker(stack) -> None:
    stack.kill("worker", signal.SIGKILL)
    stack.start_worker()


def delete_queue(stack) -> None:
    stack.redis("del", "bots", "clock")


def restart_redis(stack) -> None:
    stack.redis("shutdown", "nosave")
    stack.processes.pop("redis").wait(timeout=30)
    stack.start_redis()


FAULTS = {"no fault": lambda stack: None, "worker killed": kill_worker,
          "queue deleted": delete_queue, "Redis restarted": restart_redis}


def fault_recovery(matches: int, rounds: int, sweep_seconds: str, recovery_seconds: str) -> bool:
    """Prints the figures; False if a match did not move again or verify_matches failed."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()  # for the tasks' module, which reads the settings
    from bots.tasks import TEST_DELAY_BEFORE
    from tests.integration.stack import Stack

    stack = Stack(**{TEST_DELAY_BEFORE: TURN_DELAY, "RECOVERY_SWEEP_SECONDS": sweep_seconds,
                     "TURN_RECOVERY_SECONDS": recovery_seconds,
                     "BOT_TASK_SOFT_TIME_LIMIT": "10", "BOT_TASK_TIME_LIMIT": "15"})
    print(f"\nFrom a lost turn to its recovery: {matches} matches, each fault made {rounds} "
          f"times; a sweep every {sweep_seconds} s, a queued turn due again after "
          f"{recovery_seconds} s, one worker (solo pool), turns sleeping {TURN_DELAY} s")
    healthy = True
    try:
        stack.up()
        person, ids = running_matches(stack, matches)
        waits(person, ids, versions(person, ids), time.monotonic())  # every match under way
        for name, fault in FAULTS.items():
            seconds = []
            for _ in range(rounds):
                started = time.monotonic()
                fault(stack)
                seconds += waits(person, ids, versions(person, ids), started)
            healthy = healthy and max(seconds) < float("inf")
            print(f"{name:16} p50 {statistics.median(seconds):5.1f} s, max {max(seconds):5.1f} s"
                  f" until a match moves again ({len(seconds)} waits)")
        done = stack.manage("verify_matches")
        healthy = healthy and done.returncode == 0
        print("verify_matches:", "every log whole, no turn played twice" if done.returncode == 0
              else done.stdout + done.stderr)
    except BaseException:
        print(stack.logs())
        raise
    finally:
        stack.down()
    return healthy


def main() -> None:
    args = arguments()
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    ok = True
    if args.part in ("sweep", "all"):
        ok = sweep_cost(args.database, args.broker, [int(s) for s in args.sizes.split(",")],
                        args.runs)
        if not ok:
            print("FAILED: the claim scans the table instead of reading the index match_due")
    if args.part in ("faults", "all"):
        if not fault_recovery(args.matches, args.rounds, args.sweep_seconds,
                              args.recovery_seconds):
            ok = False
            print("FAILED: a match did not recover, or its log is not whole")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
