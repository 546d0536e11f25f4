"""510k engine figures: random whole rounds per second, the cost of listing legal actions, and a
seeded soak that must end with zero errors.

Run: `.venv/bin/python bench/engine_510k.py [--smoke]` (about a minute). `run()` returns the
figures as a dict; bench/engine.py calls it beside RLCard's.
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import listing  # noqa: E402
from bench.smoke import parser  # noqa: E402
from games.engine.actions import Bid, Cut, Play  # noqa: E402
from games.engine.rulesets.five_ten_k import RULESET as RULES  # noqa: E402
from games.engine.rulesets.five_ten_k.listing import (
    by_rank,  # noqa: E402
    with_random_extras,  # noqa: E402
)
from games.engine.rulesets.five_ten_k.playout import random_round, random_steps  # noqa: E402


def rounds_per_second(players: int, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    match = RULES.new_match({"players": players}, [False] * players)
    rounds = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        random_round(match, f"{seed}/{rounds}", rng)
        rounds += 1
    return rounds / (time.perf_counter() - started)


def round_stream(seed: int):
    """Random whole 4-player rounds, one per `next()`: bench/engine.py times them in blocks."""
    rng = random.Random(seed)
    match = RULES.new_match({"players": 4}, [False] * 4)
    rounds = 0
    while True:
        random_round(match, f"{seed}/{rounds}", rng)
        rounds += 1
        yield


def lead_listing_stream(seed: int):
    """One timed cold listing of a 22-card lead per `next()`, in seconds."""
    for state in lead_states(10**9, seed):
        by_rank.cache_clear()
        began = time.perf_counter()
        RULES.legal_actions(state, RULES.to_act(state))
        yield time.perf_counter() - began


def timed_listings(states) -> dict:
    return listing.timed_listings(RULES, states, by_rank.cache_clear)


def lead_states(count: int, seed: int):
    """4-player rounds just after the bids: the leader holds 22 cards and leads."""
    rng = random.Random(seed)
    for i in range(count):
        match = RULES.start_round(RULES.new_match({}, [False] * 4), f"lead/{seed}/{i}")
        match, _ = RULES.apply(match, 0, Cut(None))
        while match.round.phase == "bid":
            match, _ = RULES.apply(match, RULES.to_act(match), Bid(rng.random() < 0.1))
        yield match


def midround_states(count: int, seed: int):
    """4-player rounds stopped at a random step of their play phase."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        match = RULES.start_round(RULES.new_match({}, [False] * 4), f"mid/{seed}/{made}")
        match, _ = random_steps(match, rng, rng.randrange(1, 120))
        if match.round.phase == "play":
            made += 1
            yield match


def soak(rounds: int, seed: int) -> dict:
    """Whole matches through the public interface only, options varied; every action from
    `legal_actions` (extras at random) must be accepted and every round must sum to zero."""
    rng = random.Random(seed)
    errors = played = actions = 0
    first_error = None
    while played < rounds:
        options = {
            "players": rng.choice([4, 2]),
            "base_score": rng.randint(1, 10),
            "dry": rng.choice(["none", "half", "full"]),
            "xi_mode": rng.choice(["multiplicative", "additive"]),
            "rounds": min(8, rounds - played),
        }
        match = RULES.new_match(RULES.parse_options(options), [False] * options["players"])
        try:
            while RULES.table(match).needs_round:
                match = RULES.start_round(match, f"soak/{seed}/{played}")
                while not RULES.round_over(match):
                    seat = RULES.to_act(match)
                    action = rng.choice(RULES.legal_actions(match, seat))
                    if isinstance(action, Play):
                        action = with_random_extras(match.round.hands[seat], action, rng)
                    match, _ = RULES.apply(match, seat, action)
                    actions += 1
                if sum(RULES.round_result(match)["deltas"]) != 0:
                    errors += 1
                played += 1
        except Exception as err:  # the soak counts every failure, whatever it is
            errors += 1
            played += 1
            first_error = first_error or f"round {played}: {err!r}"
    return {"rounds": played, "actions": actions, "errors": errors, "first_error": first_error}


def run(
    seconds: float = 5.0, listings: int = 2000, soak_rounds: int = 2000, seed: int = 510
) -> dict:
    return {
        "rounds_per_second_4p": rounds_per_second(4, seconds, seed),
        "rounds_per_second_2p": rounds_per_second(2, seconds, seed),
        "lead_listing": timed_listings(list(lead_states(listings, seed))),
        "midround_listing": timed_listings(list(midround_states(listings, seed))),
        "soak": soak(soak_rounds, seed),
    }


def report(figures: dict) -> None:
    print(f"random whole rounds/s: 4 players {figures['rounds_per_second_4p']:.0f}, "
          f"2 players {figures['rounds_per_second_2p']:.0f}")
    for name in ("lead_listing", "midround_listing"):
        f = figures[name]
        print(f"{name.replace('_', ' ')}: {f['calls_per_second']:.0f} calls/s, median "
              f"{f['median_ms']:.4f} ms, p99 {f['p99_ms']:.4f} ms, largest {f['largest_listing']} "
              f"actions (mean {f['mean_listing']:.1f})")
    soaked = figures["soak"]
    print(f"soak: {soaked['rounds']} rounds, {soaked['actions']} actions, "
          f"{soaked['errors']} errors" + (f" (first: {soaked['first_error']})"
                                            if soaked["first_error"] else ""))


SMOKE = dict(seconds=0.2, listings=50, soak_rounds=10)


def main() -> None:
    smoke = parser(__doc__).parse_args().smoke
    started = time.perf_counter()
    report(run(**(SMOKE if smoke else {})))
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
