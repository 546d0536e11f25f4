"""What gandengyan opponents' actions tell of their hands, by the part of the round they come from:
how far each kind of evidence sets the true hands apart from hands drawn at random from the cards
a seat cannot see. It plays rounds of four `normal` players on fixed seeds and, at each decision
of seat 0, weighs each opponent's true hand and random hands of the same size (RANDOM_HANDS per
opponent) by:
- `since`: the opponent's actions since its last draw, replayed as `normal` would make them on the
  hand (what `hard` reads, bots/strategies/gandengyan/belief.py): 1 if the hand explains them all;
- `before`: its actions before its last draw, back to the draw before (or the deal), replayed on
  its hand then: its hand now, with the cards played since and without the card it drew, which
  nobody else saw: the share of the possible drawn cards for which the hand explains them all;
- `passes`: its passes of a single before its last draw (a `normal` player answers when it can, so
  it held no card of the next rank and no 2 then): 1 if the draws since can account for every such
  card of its hand now and of its plays since.
A kind worth reading into the samples scores the true hands well above the random ones.

Run: `.venv/bin/python bench/hand_evidence.py [--matches 300] [--seed evidence] [--smoke]`.
"""

import argparse
import os
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench.hard_ceiling import Watched  # noqa: E402
from bots import simulation  # noqa: E402
from bots.strategies import strategies  # noqa: E402
from bots.strategies.gandengyan import normal  # noqa: E402
from bots.strategies.gandengyan.belief import Belief, moments  # noqa: E402
from games.engine.cards import RANK_OF, make_pack  # noqa: E402
from games.engine.rulesets.gandengyan.state import HAND_SIZE  # noqa: E402

RANDOM_HANDS = 4
ROUNDS = 5
KINDS = ("since", "before", "passes")


def last_draws(seen) -> dict[int, int]:
    """Each seat's last draw: its index in the log."""
    return {event.seat: i for i, event in enumerate(seen.log) if event.kind == "draw"}


def truncated(seen, end: int):
    """The observation as its log stood before entry `end`, with the counts and the pile then."""
    counts = [0 if out else HAND_SIZE for out in seen.eliminated]
    for event in seen.log[:end]:
        if event.kind == "draw":
            counts[event.seat] += 1
        elif event.kind == "play":
            counts[event.seat] -= len(event.cards)
    pile = len(make_pack(seen.decks)) - sum(counts) - sum(
        len(e.cards) for e in seen.log[:end] if e.kind == "play")
    return seen._replace(log=seen.log[:end], counts=tuple(counts), pile=pile)


def played_since(seen, seat: int, start: int) -> tuple[int, ...]:
    return tuple(c for e in seen.log[start:] if e.kind == "play" and e.seat == seat
                 for c in e.cards)


class Evidence:
    """The three weights of one opponent's hands, at one decision of seat 0."""

    def __init__(self, seen, seat: int, draw: int):
        self.seat, self.now = seat, Belief(seen)
        self.since = played_since(seen, seat, draw)
        earlier = truncated(seen, draw)
        self.before = Belief(earlier)
        self.before.moments = {seat: (moments(earlier) or {}).get(seat, [])}
        self.passes = list(self._passes(seen, draw))

    def _passes(self, seen, draw: int):
        """(ranks it lacked, draws since, cards it played since) per pass before `draw`."""
        top = None
        for i, event in enumerate(seen.log[:draw]):
            if event.kind == "play":
                top = event.reading
            elif event.kind == "trick_won":
                top = None
            elif event.kind == "pass" and event.seat == self.seat and top is not None:
                lacked = normal.lacking_of([(self.seat, top)])[self.seat]  # `normal`'s rule
                if lacked:
                    draws = sum(e.kind == "draw" and e.seat == self.seat for e in seen.log[i:])
                    yield lacked, draws, played_since(seen, self.seat, i)

    def weights(self, hand: tuple[int, ...]) -> dict[str, float]:
        held = hand + self.since
        drawn = sorted(set(held))
        explained = sum(self.before.weight(self.seat, tuple(c for c in held if c != x)) == 1
                        for x in drawn)
        return {
            "since": float(self.now.weight(self.seat, hand) == 1),
            "before": explained / len(drawn),
            "passes": float(all(
                sum(RANK_OF[c] in lacked for c in hand + later) <= draws
                for lacked, draws, later in self.passes)),
        }


def measure(matches: int, seed: str) -> dict:
    """Four `normal` players on `simulate`'s deals; seat 0 weighs the hands at each decision."""
    watched, sampler = Watched(), random.Random(seed)  # the rounds' generators stay the players'
    total: dict[str, Counter] = {"true": Counter(), "random": Counter()}
    weighed = 0
    play = strategies("gandengyan")["normal"]

    def weighing(seen, rng: random.Random):
        nonlocal weighed
        weighed += weigh(seen, watched.state.round, sampler, total)
        return play(seen, rng)

    real, simulation.observe = simulation.observe, watched
    try:
        simulation.simulate("gandengyan", ("weighing", "normal", "normal", "normal"), matches,
                            seed, {"weighing": weighing, "normal": play}, rounds=ROUNDS)
    finally:
        simulation.observe = real
    return {side: {kind: round(counted[kind] / weighed, 3) for kind in KINDS}
            for side, counted in total.items()} | {"opponent hands weighed": weighed}


def weigh(seen, rnd, rng: random.Random, total: dict[str, Counter]) -> int:
    """Adds the weights of every opponent's true hand and random hands (those that drew at
    least once this round, so that each kind has something to read); how many were weighed."""
    unseen = [c for s, hand in enumerate(rnd.hands) if s != seen.seat for c in hand]
    unseen += list(rnd.pile)
    weighed = 0
    for seat, draw in last_draws(seen).items():
        hand = rnd.hands[seat]
        if seat == seen.seat or not hand:
            continue
        evidence = Evidence(seen, seat, draw)
        total["true"].update(evidence.weights(hand))
        for _ in range(RANDOM_HANDS):
            drawn = evidence.weights(tuple(rng.sample(unseen, len(hand))))
            total["random"].update({k: v / RANDOM_HANDS for k, v in drawn.items()})
        weighed += 1
    return weighed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--seed", default="evidence")
    parser.add_argument("--smoke", action="store_true", help="three matches, for CI")
    args = parser.parse_args()
    figures = measure(3 if args.smoke else args.matches, args.seed)
    print(f"opponent hands weighed: {figures.pop('opponent hands weighed')}")
    print(f"{'mean weight':<12} " + " ".join(f"{kind:>7}" for kind in KINDS))
    for side, weights in figures.items():
        print(f"{side + ' hands':<12} " + " ".join(f"{weights[kind]:>7}" for kind in KINDS))


if __name__ == "__main__":
    main()
