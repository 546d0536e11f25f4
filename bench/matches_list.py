"""GET /api/v1/matches/ for a person with 100 matches and for one with 10,000, in the same
database, their requests taken in turn: the first page, a filtered page and a deep page must cost
the same (target: within 1.3× at 10,000), because a page is read from one index of the person's
seats, newest first, and no page counts or sorts them all.

Run: `.venv/bin/python bench/matches_list.py [--smoke]` (PostgreSQL on 127.0.0.1:5432, user
postgres; it creates and drops the database `cardtable_bench_list`, or `$BENCH_DATABASE`). The
requests go through Django's test client in this process, so the figures are the server's own
work.
"""

import gc
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.database import configure, drop, recreate  # noqa: E402
from bench.smoke import parser  # noqa: E402

DATABASE = os.environ.get("BENCH_DATABASE", "cardtable_bench_list")
configure(DATABASE)

SIZES = (100, 10_000)
REQUESTS = 300
STATUSES = ("active", "finished", "waiting")


def add_matches(user, others, count: int, start: int) -> None:
    """`count` matches of `user` (seat 0) against three others, rows written directly: the list
    reads rows, and how they came about does not matter to it."""
    from games.models import Match, Seat

    matches = Match.objects.bulk_create(
        Match(ruleset="gandengyan", options={"decks": 1, "players": 4, "starting_score": 500},
              options_hash="x", status=STATUSES[i % 3], owner=user,
              invite_code=f"B{start + i:011d}", version=10, snapshot={"big": "x" * 2000})
        for i in range(count))
    Seat.objects.bulk_create(
        Seat(match=m, index=i, kind="human", user=u, match_status=m.status)
        for m in matches for i, u in enumerate([user, *others]))


def pages_ms(clients: dict[int, object], paths: dict[int, dict[str, str]],
             requests: int = REQUESTS) -> dict:
    """The median time of each page of each person, every request taken in turn (after a
    warm-up), so that the machine's load falls on all of them alike."""
    times = {(size, name): [] for size in clients for name in paths[size]}
    for round_number in range(requests + 20):
        for size, client in clients.items():
            for name, path in paths[size].items():
                started = time.perf_counter()
                response = client.get(path)
                if round_number >= 20:
                    times[size, name].append(time.perf_counter() - started)
                assert response.status_code == 200, response.content
    return {key: statistics.median(t) * 1000 for key, t in times.items()}


def main() -> None:
    sizes, requests = ((10, 100), 5) if parser(__doc__).parse_args().smoke else (SIZES, REQUESTS)
    recreate(DATABASE)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections
    from django.test import Client

    from accounts import tokens
    from accounts.models import User
    from games.models import Match

    call_command("migrate", verbosity=0)
    others = [User.objects.create_user(f"other{i}") for i in range(3)]
    clients, paths, made = {}, {}, 0
    try:
        for size in sizes:
            user = User.objects.create_user(f"player-of-{size}")
            add_matches(user, others, size, made)
            made += size
            token = tokens.issue(user).key
            clients[size] = Client(HTTP_AUTHORIZATION=f"Token {token}")
            first = Match.objects.filter(owner=user).order_by("pk").first().pk
            paths[size] = {"first page": "/api/v1/matches/",
                           "status=active": "/api/v1/matches/?status=active",
                           "a page halfway": f"/api/v1/matches/?before={first + size // 2}"}
        with connections["default"].cursor() as cursor:
            cursor.execute("ANALYZE")
        gc.collect()  # the rows just written are garbage: not the requests' to collect
        figures = pages_ms(clients, paths, requests)
    finally:
        connections.close_all()
        drop(DATABASE)
    small, large = sizes
    for name in paths[small]:
        ratio = figures[large, name] / figures[small, name]
        print(f"{name:15} p50 {figures[small, name]:6.2f} ms with {small:,} matches, "
              f"{figures[large, name]:6.2f} ms with {large:,}: {ratio:.2f}x "
              f"({'within' if ratio <= 1.3 else 'ABOVE'} 1.3x)")


if __name__ == "__main__":
    main()
