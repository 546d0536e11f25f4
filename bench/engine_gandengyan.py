"""Gandengyan engine figures: random whole rounds and matches per second, the cost of listing legal
actions, and a seeded soak of whole matches that must end with zero errors.

Run: `.venv/bin/python bench/engine_gandengyan.py [--smoke]` (about two minutes). `run()` returns
the figures as a dict, `report(figures)` prints them; bench/engine.py calls both beside RLCard's.
Every action goes through the public interface: `legal_actions`, a uniformly random choice, `apply`.
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import listing  # noqa: E402
from bench.smoke import parser  # noqa: E402
from games.engine.actions import Pass  # noqa: E402
from games.engine.rulesets.gandengyan import RULESET as RULES  # noqa: E402
from games.engine.rulesets.gandengyan.combos import shape_of  # noqa: E402
from games.engine.rulesets.gandengyan.playout import random_steps  # noqa: E402

CONFIGS = [(players, decks) for players in (4, 5, 6) for decks in (1, 2)]


def rounds_per_second(decks: int, seconds: float, seed: int) -> dict:
    """4 seats; each round dealt from a fresh seed and played out at random."""
    rng = random.Random(seed)
    match = RULES.new_match({"decks": decks}, [False] * 4)
    rounds = actions = 0
    started, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds:
        state, moves = random_steps(RULES.start_round(match, f"{seed}/{rounds}"), rng)
        rounds += 1
        actions += len(moves)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    # CPU seconds too: on a shared machine the wall-clock rate drops with other jobs' load.
    return {"rounds_per_second": rounds / elapsed, "rounds_per_cpu_second": rounds / cpu,
            "actions_per_round": actions / rounds}


def round_stream(seed: int):
    """Random whole rounds, 4 seats and one deck, one per `next()`: bench/engine.py times them in
    blocks."""
    rng = random.Random(seed)
    match = RULES.new_match({"decks": 1}, [False] * 4)
    rounds = 0
    while True:
        random_steps(RULES.start_round(match, f"{seed}/{rounds}"), rng)
        rounds += 1
        yield


def matches_per_second(decks: int, seconds: float, seed: int, starting_score: int = 500) -> dict:
    """4 bot seats at the default 500 points: a random walk, so matches run hundreds of rounds."""
    rng = random.Random(seed)
    matches = rounds = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds or matches < 3:
        state = RULES.new_match({"decks": decks, "starting_score": starting_score}, [False] * 4)
        while RULES.table(state).needs_round:
            state, _ = random_steps(RULES.start_round(state, f"{seed}/{matches}/{rounds}"), rng)
            rounds += 1
        matches += 1
    elapsed = time.perf_counter() - started
    return {"matches_per_second": matches / elapsed, "rounds_per_match": rounds / matches,
            "starting_score": starting_score}


def midround_states(count: int, seed: int) -> list:
    """4-seat one-deck rounds stopped at a random step, with a seat to act."""
    rng = random.Random(seed)
    states = []
    match = RULES.new_match({}, [False] * 4)
    while len(states) < count:
        state = RULES.start_round(match, f"mid/{seed}/{len(states)}")
        state, _ = random_steps(state, rng, rng.randrange(0, 90))
        if RULES.to_act(state) is not None:
            states.append(state)
    return states


def timed_listings(states) -> dict:
    return listing.timed_listings(RULES, states, shape_of.cache_clear)


def soak(matches: int, seed: int) -> dict:
    """Whole matches over every seat count and both packs, some with a human seat, at small
    starting scores so that 2,000 of them fit in the time budget. Every listed action must be
    accepted, `forced_action` must agree with the listing, every round must sum to zero."""
    rng = random.Random(seed)
    errors = rounds = actions = 0
    first_error = None
    started = time.perf_counter()
    for n in range(matches):
        players, decks = CONFIGS[n % len(CONFIGS)]
        options = {"players": players, "decks": decks, "starting_score": rng.randint(5, 40)}
        humans = [rng.random() < 0.2 for _ in range(players)]
        try:
            state = RULES.new_match(options, humans)
            while RULES.table(state).needs_round:
                state = RULES.start_round(state, f"soak/{seed}/{n}/{rounds}")
                rounds += 1
                while not RULES.round_over(state):
                    seat = RULES.to_act(state)
                    listed = RULES.legal_actions(state, seat)
                    forced = RULES.forced_action(state)
                    if (forced is not None) != (listed == [Pass()]):
                        raise AssertionError(f"forced_action {forced} beside {listed}")
                    state, _ = RULES.apply(state, seat, rng.choice(listed))
                    actions += 1
                if sum(RULES.round_result(state)["deltas"]) != 0:
                    raise AssertionError("a round did not sum to zero")
            if sum(state.scores) != options["starting_score"] * players:
                raise AssertionError("the match did not sum to zero")
        except Exception as err:  # the soak counts every failure, whatever it is
            errors += 1
            first_error = first_error or f"match {n}: {err!r}"
    return {"matches": matches, "rounds": rounds, "actions": actions, "errors": errors,
            "first_error": first_error, "seconds": time.perf_counter() - started}


def run(seconds: float = 5.0, listings: int = 5000, soak_matches: int = 2000,
        seed: int = 2644, match_score: int = 500) -> dict:
    return {
        "rounds_4p_1deck": rounds_per_second(1, seconds, seed),
        "rounds_4p_2decks": rounds_per_second(2, seconds, seed),
        "matches_4p_1deck": matches_per_second(1, 2 * seconds, seed, match_score),
        "matches_4p_2decks": matches_per_second(2, 2 * seconds, seed, match_score),
        "midround_listing": timed_listings(midround_states(listings, seed)),
        "soak": soak(soak_matches, seed),
    }


def report(figures: dict) -> None:
    for decks in ("1deck", "2decks"):
        r, m = figures[f"rounds_4p_{decks}"], figures[f"matches_4p_{decks}"]
        print(f"4 seats, {decks}: {r['rounds_per_second']:.0f} random whole rounds/s "
              f"({r['rounds_per_cpu_second']:.0f} per CPU second; {r['actions_per_round']:.0f} "
              f"actions each); {m['matches_per_second']:.2f} whole "
              f"matches/s at {m['starting_score']} points "
              f"({m['rounds_per_match']:.0f} rounds each)")
    f = figures["midround_listing"]
    print(f"legal_actions on mid-round states (cold): {f['calls_per_second']:.0f} calls/s, median "
          f"{f['median_ms'] * 1000:.1f} µs, p99 {f['p99_ms'] * 1000:.1f} µs, "
          f"largest {f['largest_listing']}")
    s = figures["soak"]
    print(f"soak: {s['matches']} whole matches ({s['rounds']} rounds, {s['actions']} actions) in "
          f"{s['seconds']:.0f} s, {s['errors']} errors"
          + (f" (first: {s['first_error']})" if s["first_error"] else ""))


SMOKE = dict(seconds=0.2, listings=50, soak_matches=6, match_score=20)


def main() -> None:
    smoke = parser(__doc__).parse_args().smoke
    started = time.perf_counter()
    report(run(**(SMOKE if smoke else {})))
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
