"""Data that stays small: what a finished match costs in storage before and after compaction,
and whether an act and a view slow down when the event and move tables hold many rows.

1. Storage. `--matches` (10) gandengyan matches (a person in 托管 and three `normal` bots, starting
   score `--score`) play to their end; the event, move and archive tables with their indexes
   (pg_total_relation_size, after VACUUM FULL, alone in a fresh database) are measured, then
   every match is compacted (`games.services.compaction`) and they are measured again. Prints
   bytes per finished match, before and after, and the ratio.
2. Latency with a big table. On the same database, two people play an all-human gandengyan
   match: the p50 and p99 of `--acts` acts (POST .../act/) and of as many views
   (GET .../matches/{id}/), in-process (Django's test client: the whole request path, HTTP
   aside). Then `--rows` event rows (10 million by default, the issue's figure) and a move per
   two events are written into finished matches with SQL (generate_series, their data copied
   from the real matches' events), ANALYZEd, and a new match is measured the same way. Prints
   both and the ratios (the target: at most 1.3).

Run: `.venv/bin/python bench/compaction.py` (PostgreSQL on 127.0.0.1:5432, user postgres; it
creates and drops the database `cardtable_bench_compaction`; 10 million rows take some minutes and
about 3 GB while it runs). `--smoke`: 20,000 rows, fewer acts and one match (seconds). Times are
wall-clock on this machine, whatever else runs on it: quote them with the load.
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import database  # noqa: E402

PG = database.PG
DATABASE = "cardtable_bench_compaction"
ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DATABASE_URL": f"{PG}/{DATABASE}",
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
    "ALLOWED_HOSTS": "testserver",
    "SECURE_SSL_REDIRECT": "0",
    "LOG_LEVEL": "WARNING",
    "PYTHONWARNINGS": "ignore::UserWarning",  # whitenoise: no collected static files, none needed
}
TABLES = ("games_event", "games_move", "games_roundarchive")


def recreate_database() -> None:
    database.recreate(DATABASE)
    env = {k: v for k, v in os.environ.items()
           if k not in ("CELERY_BROKER_URL", "CACHE_URL", "LIVE_REDIS_URL")}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                   cwd=ROOT, env={**env, **ENV}, check=True)


def drop_database() -> None:
    from django.db import connections

    connections.close_all()
    database.drop(DATABASE)


def setup_django() -> None:
    for name in ("CELERY_BROKER_URL", "CACHE_URL", "LIVE_REDIS_URL"):
        os.environ.pop(name, None)  # bots play eagerly, in-process
    os.environ.update(ENV)
    import django

    django.setup()


def player():
    from rest_framework.test import APIClient

    from tests.matchplay import Client, client_sender, sign_in

    client = Client(client_sender(APIClient()))
    sign_in(client)
    return client


def play_finished(count: int, score: int) -> list[int]:
    """`count` matches played to their end by the server (the person's seat in 托管)."""
    from bots.tasks import play_server_turns
    from games.models import Match
    from tests.matchplay import bots, create

    client, ids = player(), []
    for _ in range(count):
        view = create(client, "gandengyan", {"starting_score": score}, bots(3, "normal"))
        client.post(f"/matches/{view['id']}/autoplay/", {"on": True})  # 409 if over already
        match = Match.objects.get(pk=view["id"])
        while match.status != Match.Status.FINISHED:
            play_server_turns(match.pk, match.version, turns=10**6, seconds=10**6)
            match.refresh_from_db()
        ids.append(match.pk)
    return ids


def table_bytes() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f"VACUUM FULL ANALYZE {table}")
        cursor.execute("SELECT " + " + ".join(f"pg_total_relation_size('{t}')" for t in TABLES))
        return cursor.fetchone()[0]


def storage(ids: list[int], empty: int) -> tuple[float, float, int, int]:
    """Bytes per finished match before and after compaction (less `empty`: the tables' size
    with no row); events and moves per match."""
    from games.models import Event, Move
    from games.services.compaction import match_compact

    events, moves = Event.objects.count() / len(ids), Move.objects.count() / len(ids)
    before = table_bytes() - empty
    for match_id in ids:
        assert match_compact(match_id)
    after = table_bytes() - empty
    return before / len(ids), after / len(ids), round(events), round(moves)


def latency(acts: int, seed: int) -> dict[str, list[float]]:
    """Seconds per act and per view of an all-human gandengyan match of four people, each of
    whom reads their view and acts on their turn."""
    from tests.matchplay import choose, create

    rng = random.Random(seed)
    people = [player() for _ in range(4)]
    view = create(people[0], "gandengyan", {"starting_score": 100000}, [{"type": "human"}] * 4)
    match_id = view["id"]
    for other in people[1:]:
        status, joined = other.post("/matches/join/", {"code": view["invite_code"]})
        assert status == 200, joined
    times: dict[str, list[float]] = {"act": [], "view": []}
    while len(times["act"]) < acts:
        for client in people:
            started = time.perf_counter()
            status, mine = client.get(f"/matches/{match_id}/")
            times["view"].append(time.perf_counter() - started)
            assert status == 200, mine
            if not mine["your_turn"]:
                continue
            started = time.perf_counter()
            status, done = client.post(f"/matches/{match_id}/act/",
                                       {"expected_version": mine["version"],
                                        "action": choose(mine, rng)})
            times["act"].append(time.perf_counter() - started)
            assert status == 200, done
    return times


def fill(rows: int) -> float:
    """`rows` events and half as many moves in finished matches, by SQL; seconds it took."""
    from django.db import connection

    from games.models import Match

    started = time.perf_counter()
    template = Match.objects.filter(status=Match.Status.FINISHED).order_by("pk").first()
    per_match = 40_000  # an unattended default gandengyan match wrote about that many
    matches = max(1, rows // per_match)
    with connection.cursor() as cursor:
        cursor.execute("SELECT column_name FROM information_schema.columns"
                       " WHERE table_name = 'games_match' AND column_name NOT IN"
                       " ('id', 'invite_code', 'current_round_id', 'rematch_of_id')")
        columns = [c for (c,) in cursor.fetchall()]
        names = ", ".join(f'"{c}"' for c in columns)
        cursor.execute(
            f"CREATE TEMP TABLE filler AS WITH made AS (INSERT INTO games_match ({names},"
            f" invite_code) SELECT {names}, 'fill' || g FROM games_match,"
            f" generate_series(1, %s) g WHERE id = %s RETURNING id) SELECT id FROM made",
            [matches, template.pk])
        cursor.execute(
            "CREATE TEMP TABLE filler_round AS WITH made AS (INSERT INTO games_round"
            " (match_id, number, seed, seed_hash, seating, started_at)"
            " SELECT id, 1, 'fill', 'fill', '[]', now() FROM filler RETURNING id, match_id)"
            " SELECT * FROM made")
        cursor.execute("SELECT array_agg(data::text) FROM (SELECT data FROM games_event"
                       " ORDER BY id LIMIT 1000) d")
        samples = cursor.fetchone()[0]
        cursor.execute("SELECT array_agg(action::text) FROM (SELECT action FROM games_move"
                       " ORDER BY id LIMIT 1000) d")
        actions = cursor.fetchone()[0]
        cursor.execute(
            "INSERT INTO games_event (match_id, seq, round_number, version, data, created_at)"
            " SELECT f.id, s, 1, s, (%s::jsonb[])[1 + s %% %s], now()"
            " FROM filler f CROSS JOIN generate_series(1, %s) s",
            [samples, len(samples), per_match])
        cursor.execute(
            "INSERT INTO games_move (match_id, round_id, seq, seat, action, actor, reason,"
            " version, idempotency_key, created_at)"
            " SELECT r.match_id, r.id, s, s %% 4, (%s::jsonb[])[1 + s %% %s], 'bot', '', s, '',"
            " now() FROM filler_round r CROSS JOIN generate_series(1, %s) s",
            [actions, len(actions), per_match // 2])
        for table in TABLES[:2]:
            cursor.execute(f"ANALYZE {table}")
    return time.perf_counter() - started


def quantiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a few seconds: tiny sizes")
    parser.add_argument("--rows", type=int, default=10_000_000, help="event rows to add")
    parser.add_argument("--acts", type=int, default=400, help="acts measured per phase")
    parser.add_argument("--matches", type=int, default=10, help="finished matches measured")
    parser.add_argument("--score", type=int, default=20, help="their starting score")
    args = parser.parse_args()
    if args.smoke:
        args.rows, args.acts, args.matches, args.score = 40_000, 40, 1, 8
    recreate_database()
    setup_django()
    try:
        empty = table_bytes()
        ids = play_finished(args.matches, args.score)
        before, after, events, moves = storage(ids, empty)
        print(f"storage per finished match ({args.matches} gandengyan, starting score "
              f"{args.score}: {events} events, {moves} moves each; tables and indexes):")
        print(f"  rows {before / 1024:.1f} KiB, compacted {after / 1024:.1f} KiB "
              f"({before / max(after, 1):.1f}x smaller)")
        at_first = latency(args.acts, 1)
        seconds = fill(args.rows)
        print(f"added {args.rows:,} event rows and {args.rows // 2:,} move rows in "
              f"{seconds:.0f} s")
        full = latency(args.acts, 2)
        print(f"latency, {args.acts} acts (p50 / p99, ms):")
        for kind in ("act", "view"):
            (p50a, p99a), (p50b, p99b) = quantiles(at_first[kind]), quantiles(full[kind])
            print(f"  {kind:4}  near-empty {p50a * 1000:6.2f} / {p99a * 1000:6.2f}   "
                  f"{args.rows:,} rows {p50b * 1000:6.2f} / {p99b * 1000:6.2f}   "
                  f"ratio p50 {p50b / p50a:.2f}")
    finally:
        drop_database()
    return 0


if __name__ == "__main__":
    sys.exit(main())
