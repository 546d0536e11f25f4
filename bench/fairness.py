"""Worker fairness: how long a person waits for the bots' replies, beyond their match's pace,
while busy unattended matches share the one worker.

On a private deployment (its own PostgreSQL, Redis, web server, one Celery worker with the solo
pool, and beat: tests/integration/stack.py), `--busy` matches play themselves as fast as the
worker lets them (干瞪眼, three normal bots, the owner's seat in 托管 asked for, no pace), and
beside them a person plays a 干瞪眼 match against three normal bots at `--pace` ms over HTTP,
acting as soon as a read (every 50 ms) shows their turn, `--turns` times. For each of the
server's moves in the person's match: the seconds from the previous write to it, less the pace
that write set (twice as long after a trick or a round), read from the match's rows. Prints the
p50, p90, p99 and max of those waits, and how many moves the busy matches made meanwhile; then
the same with no busy match, for comparison. `--slice` sets the worker's BOT_TASK_SLICE_SECONDS
(the default: the setting's).

Run: `.venv/bin/python bench/fairness.py` (about three minutes; PostgreSQL's server programs and
`redis-server` on the machine); `--smoke` is a short run (two busy matches, four turns) that
checks the script works, not a figure to quote. Times are wall-clock on this machine, whatever
else runs on it: quote them with the load average it prints.
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BUSY = 5
TURNS = 30
PACE_MS = 700
TIMEOUT = 600


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--busy", type=int, default=BUSY, help="unattended matches")
    parser.add_argument("--turns", type=int, default=TURNS, help="the person's turns")
    parser.add_argument("--pace", type=int, default=PACE_MS, help="the person's match's pace")
    parser.add_argument("--slice", help="the worker's BOT_TASK_SLICE_SECONDS")
    parser.add_argument("--smoke", action="store_true", help="a short run: does it work")
    return parser.parse_args()


def measure(client, busy: int, turns: int, pace: int) -> tuple[list[float], int]:
    """The person's waits beside `busy` busy matches, and the moves those made meanwhile."""
    from games import services
    from tests.integration.fairness import busy_matches, person_plays, reply_waits, server_moves

    ids = busy_matches(client, busy)
    try:
        before = sum(map(server_moves, ids))
        match_id = person_plays(client, pace, turns, TIMEOUT, random.Random(21))
        moved = sum(map(server_moves, ids)) - before
    finally:
        for busy_id in ids:
            services.match_abort(match_id=busy_id, reason="measured")
    services.match_abort(match_id=match_id, reason="measured")
    return reply_waits(match_id), moved


def main() -> None:
    args = arguments()
    if args.smoke:
        args.busy, args.turns, args.pace = 2, 4, 300
    from tests.integration.stack import Stack

    stack = Stack(**({"BOT_TASK_SLICE_SECONDS": args.slice} if args.slice else {}))
    os.environ.update(DJANGO_SETTINGS_MODULE="config.settings",
                      DATABASE_URL=stack.env["DATABASE_URL"])
    import django

    django.setup()
    from django.conf import settings

    from tests.integration.fairness import percentile
    from tests.matchplay import Client, http_sender, sign_in

    task_slice = args.slice or settings.BOT_TASK_SLICE_SECONDS
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print(f"A person's wait for each bot reply beyond the pace ({args.pace} ms), {args.turns} "
          f"turns; one worker (solo pool), a task's slice {task_slice} s")
    try:
        stack.up()
        client = Client(http_sender(stack.url))
        sign_in(client)
        for busy in (args.busy, 0):
            started = time.monotonic()
            waits, moved = measure(client, busy, args.turns, args.pace)
            print(f"beside {busy} busy matches: p50 {percentile(waits, 0.5):.3f} s, p90 "
                  f"{percentile(waits, 0.9):.3f} s, p99 {percentile(waits, 0.99):.3f} s, max "
                  f"{max(waits):.3f} s ({len(waits)} replies; the busy matches made {moved} "
                  f"moves in {time.monotonic() - started:.0f} s)")
    except BaseException:
        print(stack.logs())
        raise
    finally:
        stack.down()


if __name__ == "__main__":
    main()
