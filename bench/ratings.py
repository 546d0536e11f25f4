"""Ratings: what a profile and a leaderboard page cost at 100 and at 100,000 rated players, and
what rating a finished match adds to the match's last act.

1. GET /api/v1/leaderboards/{ruleset}/ (the first page and a page halfway down) and
   GET /api/v1/players/{id}/ for a board of 100 players and one of 100,000, in the same database,
   their requests taken in turn: each must cost the same (target: within 1.3x), since a page is
   read from the board's index where the previous one ended and a profile from its person's
   rows alone.
2. Two people play 510K (2 players, one round) through the API to its end, again and again; the
   last act (POST /act/ that settles the last round and finishes the match) is timed, and the
   rating inside it (games.hooks' match-finished handler) on its own: its share of the act
   (target: at most 10 %).

Run: `.venv/bin/python bench/ratings.py` (PostgreSQL on 127.0.0.1:5432, user postgres; it
creates and drops the database `cardtable_bench_ratings`; about two minutes), or with `--smoke`
(a board of 2,000, a few requests and matches: seconds, a check that it runs). The requests go
through Django's test client in this process, so the figures are the server's own work.
"""

import gc
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.database import configure, drop, recreate  # noqa: E402

DATABASE = "cardtable_bench_ratings"
configure(DATABASE)

SMOKE = "--smoke" in sys.argv
SIZES = (100, 2_000) if SMOKE else (100, 100_000)
BOARDS = dict(zip(SIZES, ("gandengyan", "510k"), strict=True))  # one ruleset per board size
REQUESTS, WARM_UP = (10, 2) if SMOKE else (300, 20)
MATCHES = 2 if SMOKE else 30
HISTORY = 20  # rated matches of each profiled person
BATCH = 5_000


def add_board(ruleset: str, size: int, owner) -> int:
    """`size` people rated in `ruleset`, four to a finished match, each with one change, and
    one more person with HISTORY changes: rows written directly (the reads read rows, and how
    they came about does not matter to them). The id of that person."""
    from accounts.models import User
    from games.models import Match
    from ratings.models import Rating, RatingChange
    from ratings.services import ordinal

    rng = random.Random(size)

    def matches(count: int, tag: str) -> list:
        return Match.objects.bulk_create(
            (Match(ruleset=ruleset, options={}, options_hash="x", status="finished", owner=owner,
                   invite_code=f"{tag}{size:06d}{i:05d}") for i in range(count)),
            batch_size=BATCH)

    users = User.objects.bulk_create((User(username=f"{ruleset}-{i}") for i in range(size)),
                                     batch_size=BATCH)
    ratings = Rating.objects.bulk_create(
        (Rating(ruleset=ruleset, user=u, mu=(mu := rng.gauss(25, 4)),
                sigma=(sigma := 3 + rng.random()), ordinal=ordinal(mu, sigma), matches=1)
         for u in users), batch_size=BATCH)
    played = matches((size + 3) // 4, "A")
    RatingChange.objects.bulk_create(
        (RatingChange(rating=r, match=played[i // 4], seat=i % 4, rank=1 + i % 2, sides=2,
                      points=0, mu=r.mu, sigma=r.sigma, ordinal=r.ordinal, delta=0.5)
         for i, r in enumerate(ratings)), batch_size=BATCH)
    person = User.objects.create_user(f"profiled-{ruleset}")
    rating = Rating.objects.create(ruleset=ruleset, user=person, mu=27, sigma=2,
                                   ordinal=ordinal(27, 2), matches=HISTORY)
    RatingChange.objects.bulk_create(
        RatingChange(rating=rating, match=m, seat=0, rank=1, sides=2, points=3, mu=27, sigma=2,
                     ordinal=rating.ordinal, delta=0.4) for m in matches(HISTORY, "P"))
    return person.pk


def reads_ms(client, paths: dict) -> dict:
    """The median time of each path, every request taken in turn (after a warm-up), so that
    the machine's load falls on all of them alike."""
    times = {key: [] for key in paths}
    for round_number in range(REQUESTS + WARM_UP):
        for key, path in paths.items():
            started = time.perf_counter()
            response = client.get(path)
            if round_number >= WARM_UP:
                times[key].append(time.perf_counter() - started)
            assert response.status_code == 200, response.content
    return {key: statistics.median(t) * 1000 for key, t in times.items()}


def board_paths(people: dict[int, int]) -> dict:
    from ratings.models import Rating

    paths = {}
    for size, ruleset in BOARDS.items():
        order = Rating.objects.filter(ruleset=ruleset).order_by("-ordinal", "-id")
        halfway = order.values_list("pk", flat=True)[size // 2]
        paths[size, "leaderboard, first page"] = f"/api/v1/leaderboards/{ruleset}/"
        paths[size, "leaderboard, halfway"] = (f"/api/v1/leaderboards/{ruleset}/"
                                               f"?after={halfway}&rank={size // 2 + 1}")
        paths[size, "profile"] = f"/api/v1/players/{people[size]}/"
    return paths


def last_acts(users) -> list[tuple[float, float]]:
    """MATCHES 510K matches of two people played through the API: (the last act's time, the
    rating's time within it), in ms."""
    from django.test import Client

    from accounts import tokens
    from games import hooks
    from games.engine.registry import get_ruleset
    from games.models import Match

    rated = []
    handlers = hooks._match_finished_handlers
    original = list(handlers)

    def timed(rate):
        def rating(*args):
            started = time.perf_counter()
            rate(*args)
            rated.append(time.perf_counter() - started)
        return rating

    handlers[:] = [timed(h) for h in original]
    clients = [Client(HTTP_AUTHORIZATION=f"Token {tokens.issue(u).key}") for u in users]
    engine, rng, figures = get_ruleset("510k"), random.Random(1), []
    try:
        for _ in range(MATCHES):
            made = clients[0].post("/api/v1/matches/", {
                "ruleset": "510k", "options": {"players": 2, "rounds": 1},
                "seats": [{"type": "human"}, {"type": "human"}]}, content_type="application/json")
            match_id = made.json()["id"]
            clients[1].post("/api/v1/matches/join/", {"code": made.json()["invite_code"]},
                            content_type="application/json")
            while True:
                match = Match.objects.get(pk=match_id)
                if match.status == Match.Status.FINISHED:
                    break
                state = engine.from_json(match.snapshot)
                seat = engine.to_act(state)
                action = rng.choice(engine.legal_actions(state, seat))
                count = len(rated)
                started = time.perf_counter()
                answer = clients[seat].post(
                    f"/api/v1/matches/{match_id}/act/",
                    {"expected_version": match.version, "action": action.to_dict()},
                    content_type="application/json")
                took = time.perf_counter() - started
                assert answer.status_code == 200, answer.content
                if len(rated) > count:
                    figures.append((took * 1000, rated[-1] * 1000))
    finally:
        handlers[:] = original
    assert len(figures) == MATCHES
    return figures


def main() -> None:
    recreate(DATABASE)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections
    from django.test import Client

    from accounts.models import User

    try:
        call_command("migrate", verbosity=0)
        owner = User.objects.create_user("owner")
        people = {size: add_board(ruleset, size, owner) for size, ruleset in BOARDS.items()}
        with connections["default"].cursor() as cursor:
            cursor.execute("ANALYZE")
        gc.collect()  # the rows just written are garbage: not the requests' to collect
        paths = board_paths(people)
        reads = reads_ms(Client(), paths)
        acts = last_acts([User.objects.create_user(f"player-{i}") for i in range(2)])
    finally:
        connections.close_all()
        drop(DATABASE)
    small, large = SIZES
    for name in dict.fromkeys(name for _, name in paths):
        ratio = reads[large, name] / reads[small, name]
        print(f"{name:25} p50 {reads[small, name]:6.2f} ms with {small:,} rated players, "
              f"{reads[large, name]:6.2f} ms with {large:,}: {ratio:.2f}x "
              f"({'within' if ratio <= 1.3 else 'ABOVE'} 1.3x)")
    act = statistics.median(t for t, _ in acts)
    rate = statistics.median(r for _, r in acts)
    share = statistics.median(r / t for t, r in acts) * 100
    print(f"last act of a 510K match p50 {act:6.2f} ms, rating it within it p50 {rate:5.2f} ms: "
          f"{share:.1f} % of the act ({'within' if share <= 10 else 'ABOVE'} 10 %; "
          f"{len(acts)} matches)")


if __name__ == "__main__":
    main()
