"""`hard`: determinized Monte Carlo search, the same for both rulesets.

For each sample, the unseen cards are dealt at random consistently with the seat's view (a
ruleset's `sample`), every candidate action is applied to that same full state and the round is
played to its end with a fast policy for every seat (the ruleset's `normal` heuristic working on
engine states); the candidate with the best mean outcome for the bot's side wins. Comparing all
candidates on the same samples cancels most of the luck of the deal between them.

The budget is a time (default 200 ms per decision) or a number of samples. Only whole samples
count: a sample cut short by the deadline is dropped, so the means stay comparable. The search
is skipped when there is one candidate, and `normal`'s own choice is kept unless another
candidate is better by a margin (a few noisy samples should not overturn a sound heuristic).
"""

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine.actions import Action
from games.engine.ruleset import Ruleset

DEFAULT_BUDGET_MS = 200
# Time kept back for sampling, returning and a busy machine.
SAFETY = 0.9


@dataclass(frozen=True)
class Game:
    """What the search needs from a ruleset."""

    engine: Ruleset
    sample: Callable[[dict, random.Random], Any]  # view -> a full state it could come from
    policy: Callable[[Any, int, random.Random], Action]  # the rollout policy, on states
    value: Callable[[Any, int], float]  # a finished round's outcome for a seat's side
    # The actions worth comparing, the heuristic's own choice first.
    candidates: Callable[[dict, list[Action], random.Random], list[Action]]
    margin: float  # how much better than the heuristic's choice another must be


@dataclass(frozen=True)
class Budget:
    ms: float | None = DEFAULT_BUDGET_MS
    samples: int | None = None


def rollout(game: Game, state, rng: random.Random, deadline: float | None = None):
    """The round played to its end by the policy; None if the deadline passes first."""
    engine = game.engine
    clock = time.perf_counter
    while not engine.round_over(state):
        if deadline is not None and clock() > deadline:
            return None
        seat = engine.to_act(state)
        state, _ = engine.apply(state, seat, game.policy(state, seat, rng))
    return state


def search(game: Game, view: dict, legal: list[Action], rng: random.Random,
           budget: Budget) -> Action:
    candidates = game.candidates(view, legal, rng)
    if len(candidates) == 1:
        return candidates[0]
    start = time.perf_counter()
    deadline = None if budget.ms is None else start + SAFETY * budget.ms / 1000
    seat = view["seat"]
    totals = [0.0] * len(candidates)
    samples = 0
    while budget.samples is None or samples < budget.samples:
        world = game.sample(view, rng)
        values = []
        for action in candidates:
            state, _ = game.engine.apply(world, seat, action)
            final = rollout(game, state, rng, deadline)
            if final is None:
                break
            values.append(game.value(final, seat))
        if len(values) < len(candidates):
            break
        totals = [t + v for t, v in zip(totals, values, strict=True)]
        samples += 1
        if deadline is not None and time.perf_counter() > deadline:
            break  # also when every candidate ends the round at once and no rollout looks
    if samples == 0:
        return candidates[0]
    best = max(range(len(candidates)), key=totals.__getitem__)
    if (totals[best] - totals[0]) / samples <= game.margin:
        return candidates[0]
    return candidates[best]


class Hard:
    """The `hard` strategy with its budget, dispatching on the ruleset."""

    def __init__(self, games: dict[str, Game], budget: Budget | None = None):
        self.games = games
        self.budget = budget or Budget()

    def __call__(self, ruleset_name: str, view: dict, legal: list[Action],
                 rng: random.Random) -> Action:
        return search(self.games[ruleset_name], view, legal, rng, self.budget)
