"""How strong gandengyan `hard` could be if it knew the hidden hands: its rounds won against three
`normal` with its own samples, and with samples that are the truth (every hand, or only the hands
of opponents holding one or two cards; the pile's order stays unknown). The gap between them is
what any reading of the hidden hands could gain; a bot must of course never see them, which is
why this is a benchmark and never a level.

Run: `.venv/bin/python bench/hard_ceiling.py [--matches 200] [--rounds 10] [--seed ceiling]
[--samplers own,truth,truth-near] [--smoke]` (about 6 min per sampler with the defaults on 2 cores).
"""

import dataclasses
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench import smoke  # noqa: E402
from bots import simulation  # noqa: E402
from bots.strategies import observe, strategies  # noqa: E402
from bots.strategies.gandengyan.normal import NEAR_OUT  # noqa: E402
from bots.strategies.gandengyan.search import GAME  # noqa: E402
from bots.strategies.search import Budget, Hard  # noqa: E402

SEATS = ("hard", "normal", "normal", "normal")


class Watched:
    """The bots' `observe`, remembering the last state an observation was made of: the truth a
    sampler may use."""

    def __init__(self):
        self.state = None

    def __call__(self, ruleset, state, seat, legal=None):
        self.state = state
        return observe(ruleset, state, seat, legal)


def _samplers(watched: Watched) -> dict:
    def truth(seen, rng: random.Random):
        rnd = watched.state.round
        pile = list(rnd.pile)
        rng.shuffle(pile)
        return watched.state._replace(round=rnd._replace(pile=tuple(pile)))

    def truth_near(seen, rng: random.Random):
        near = any(0 < n <= NEAR_OUT for s, n in enumerate(seen.counts) if s != seen.seat)
        return truth(seen, rng) if near else GAME.sample(seen, rng)

    return {"own": GAME.sample, "truth": truth, "truth-near": truth_near}


def run(matches: int, rounds: int, seed: str, names: list[str]) -> dict[str, tuple]:
    watched = Watched()
    samplers = _samplers(watched)
    budget = Budget(ms=None)
    figures = {}
    real = simulation.observe
    simulation.observe = watched
    try:
        for name in names:
            levels = strategies("gandengyan", budget)
            levels["hard"] = Hard(dataclasses.replace(GAME, sample=samplers[name]), budget)
            start = time.perf_counter()
            outcome = simulation.simulate("gandengyan", SEATS, matches, seed, levels,
                                          rounds=rounds, processes=2)
            won = sum(r["winner"] == "0" for r in outcome.rounds)
            figures[name] = (won, len(outcome.rounds), time.perf_counter() - start)
    finally:
        simulation.observe = real
    return figures


def main() -> None:
    parser = smoke.parser(__doc__)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", default="ceiling")
    parser.add_argument("--samplers", default="own,truth,truth-near")
    args = parser.parse_args()
    if args.smoke:
        args.matches, args.rounds = 1, 1
    figures = run(args.matches, args.rounds, args.seed, args.samplers.split(","))
    print(f"gandengyan hard (seat 0) against three normal, seed {args.seed}")
    for name, (won, total, seconds) in figures.items():
        low, high = simulation.wilson(won, total)
        print(f"{name:<11} {won:>5}/{total:<5} {100 * won / total:5.1f}%  "
              f"({100 * low:.1f}-{100 * high:.1f})  {seconds:.0f} s")


if __name__ == "__main__":
    main()
