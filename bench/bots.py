"""Bot decision times: `normal` on full 22-card 510k hands (leads and answers) and through whole
gandengyan rounds; `hard` with its default sample budget (and time cap) on positions from both
rulesets.

Run: `.venv/bin/python bench/bots.py [--hard-decisions N] [--samples S] [--budget-ms B]
[--smoke]` (a few minutes with the defaults). `run()` returns the figures, `main()` prints
them. Times are wall-clock on this machine, whatever else runs on it: quote them with the load.
"""

import functools
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import smoke  # noqa: E402
from bots.simulation import percentile  # noqa: E402
from bots.strategies import observe, strategies  # noqa: E402
from bots.strategies.search import DEFAULT_CAP_MS, Budget  # noqa: E402
from games.engine.actions import Bid, Cut  # noqa: E402
from games.engine.registry import get_ruleset  # noqa: E402

HAND = 22


@functools.cache
def _level(ruleset: str, name: str, budget: Budget | None = None):
    return strategies(ruleset, budget)[name]


def _timed(name: str, engine, state, rng, budget: Budget | None = None) -> float:
    seen = observe(engine.name, state, engine.to_act(state))
    strategy = _level(engine.name, name, budget)
    start = time.perf_counter()
    strategy(seen, rng)
    return (time.perf_counter() - start) * 1000


def _figures(ms: list[float]) -> dict:
    return {"decisions": len(ms), "p50_ms": percentile(ms, 0.5), "p99_ms": percentile(ms, 0.99),
            "max_ms": max(ms)}


def full_hands_510k(rounds: int, seed: int):
    """Positions where the seat to act holds 22 cards: the first lead and the first answers."""
    engine = get_ruleset("510k")
    normal = _level("510k", "normal")
    rng = random.Random(seed)
    for k in range(rounds):
        state = engine.start_round(engine.new_match(engine.parse_options({}), [False] * 4),
                                   f"{seed}/{k}")
        state, _ = engine.apply(state, engine.to_act(state), Cut(None))
        while state.round.phase == "bid":
            state, _ = engine.apply(state, engine.to_act(state), Bid(False))
        while len(state.round.hands[engine.to_act(state)]) == HAND:
            yield engine, state
            if engine.forced_action(state) is not None:
                break
            seat = engine.to_act(state)
            state, _ = engine.apply(state, seat, normal(observe("510k", state, seat), rng))


def whole_rounds(name: str, rounds: int, seed: int):
    """Every decision of whole rounds played by `normal`."""
    engine = get_ruleset(name)
    normal = _level(name, "normal")
    rng = random.Random(seed)
    for k in range(rounds):
        state = engine.start_round(engine.new_match(engine.parse_options({}), [False] * 4),
                                   f"{seed}/{k}")
        while not engine.round_over(state):
            seat = engine.to_act(state)
            action = engine.forced_action(state)
            if action is None:
                yield engine, state
                action = normal(observe(name, state, seat), rng)
            state, _ = engine.apply(state, seat, action)


def run(hard_decisions: int = 40, samples: int | None = None, budget_ms: float = DEFAULT_CAP_MS,
        seed: int = 1) -> dict:
    rng = random.Random(seed)
    budget = Budget(samples=samples, ms=budget_ms)
    figures = {
        "normal_510k_22_cards": _figures(
            [_timed("normal", e, s, rng) for e, s in full_hands_510k(300, seed)]),
        "normal_510k_rounds": _figures(
            [_timed("normal", e, s, rng) for e, s in whole_rounds("510k", 100, seed)]),
        "normal_gandengyan_rounds": _figures(
            [_timed("normal", e, s, rng) for e, s in whole_rounds("gandengyan", 200, seed)]),
    }
    for name in ("510k", "gandengyan"):
        positions = list(whole_rounds(name, 40, seed + 1))
        chosen = random.Random(seed).sample(positions, min(hard_decisions, len(positions)))
        ms = [_timed("hard", e, s, rng, budget) for e, s in chosen]
        figures[f"hard_{name}"] = {**_figures(ms), "samples": samples or "default",
                                   "cap_ms": budget_ms,
                                   "p99_over_cap": percentile(ms, 0.99) / budget_ms}
    figures["load_average"] = os.getloadavg()
    return figures


def main() -> None:
    parser = smoke.parser(__doc__)
    parser.add_argument("--hard-decisions", type=int, default=40)
    parser.add_argument("--samples", type=int, default=None)
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_CAP_MS)
    args = parser.parse_args()
    if args.smoke:
        args.hard_decisions, args.samples = 2, 2
    for key, value in run(args.hard_decisions, args.samples, args.budget_ms).items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
