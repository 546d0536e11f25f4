"""`hard`: determinized Monte Carlo search, the same for every ruleset.

For each sample, the unseen cards are dealt at random consistently with the seat's observation
(a ruleset's `sample`), every candidate action is applied to that same full state and the round is
played to its end with a fast policy for every seat (the ruleset's `normal` heuristic working on
engine states); the candidate with the best mean outcome for the bot's side wins. Comparing all
candidates on the same samples cancels most of the luck of the deal between them.

The budget is a number of samples (each ruleset's game says how many by default), with a cap
counted in CPU time (default 200 ms of the deciding thread's CPU per decision, the p99 a table
can afford: issue 23): strength does not depend on how busy the machine is, since a busy machine
slows the clock and the search alike. A wall-clock cap of WALL_FACTOR times as much is only a
safety net, for a person's wait on a saturated machine. Only whole samples count: a sample cut
short by a cap is dropped, so the means stay comparable. The search is skipped when there is one
candidate, and `normal`'s own choice is kept unless another candidate is better by a margin (a
few noisy samples should not overturn a sound heuristic).
Candidates clearly behind after a few samples are dropped, leaving the budget to the contenders.
"""

import gc
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from games.engine.actions import Action, Pass
from games.engine.ruleset import Ruleset

DEFAULT_SAMPLES = 48
DEFAULT_CAP_MS = 200  # CPU time
# Time kept back for sampling and returning.
SAFETY = 0.9
# The wall-clock safety net, in multiples of the CPU cap: a machine with up to this many busy
# processes per core does not reach it.
WALL_FACTOR = 4
CHECK_EVERY = 8  # rollout steps between two looks at the clocks (a CPU clock read is a syscall)
# A candidate is dropped once PRUNE_AFTER samples put it more than PRUNE_Z standard errors
# behind the leader.
PRUNE_AFTER = 8
PRUNE_Z = 2.0
CANDIDATES = 6


@dataclass(frozen=True)
class Game:
    """What the search needs from a ruleset."""

    engine: Ruleset
    sample: Callable[[Any, random.Random], Any]  # observation -> a full state it could come from
    policy: Callable[[Any, int, random.Random], Action]  # the rollout policy, on states
    value: Callable[[Any, int], float]  # a finished round's outcome for a seat's side
    # The actions worth comparing, the heuristic's own choice first.
    candidates: Callable[[Any, random.Random], list[Action]]  # from an observation
    margin: float  # how much better than the heuristic's choice another must be
    # ... and by how many standard errors of the paired difference (0: the mean alone decides)
    confidence: float = 0.0
    # Samples per decision for an observation, when the budget names none.
    samples: Callable[[Any], int] = lambda seen: DEFAULT_SAMPLES


def shortlist(first: Action, legal: list[Action], ranked: Iterable[Action],
              most: int = CANDIDATES) -> list[Action]:
    """The heuristic's choice `first`, a pass when allowed, then `ranked` (best first), without
    repeats and `most` at most."""
    found = [first]
    if any(isinstance(a, Pass) for a in legal) and not isinstance(first, Pass):
        found.append(Pass())
    for action in ranked:
        if len(found) >= most:
            break
        if action not in found:
            found.append(action)
    return found


@dataclass(frozen=True)
class Budget:
    """Samples per decision (None: the game's own number) and a cap in ms of the deciding
    thread's CPU time (None: no cap, exactly `samples` samples, reproducible); the wall clock
    stops it only at `wall` times the cap (None: never; measurements on a machine busier than
    the net is made for, which would otherwise cut the searches short)."""

    samples: int | None = None
    ms: float | None = DEFAULT_CAP_MS
    wall: float | None = WALL_FACTOR


class Deadline:
    """The end of a budget's time: its CPU cap (less SAFETY) or the wall-clock net."""

    def __init__(self, ms: float, wall: float | None = WALL_FACTOR):
        self.cpu = time.thread_time() + SAFETY * ms / 1000
        self.wall = float("inf") if wall is None else time.perf_counter() + wall * ms / 1000

    def passed(self, ahead: float = 0.0) -> bool:
        """The time is up, or will be `ahead` seconds of CPU from now."""
        return time.thread_time() + ahead > self.cpu or time.perf_counter() > self.wall


def rollout(game: Game, state, rng: random.Random, deadline: Deadline | None = None):
    """The round played to its end by the policy; None if the deadline passes first."""
    engine = game.engine
    steps = 0
    while not engine.round_over(state):
        steps += 1
        if deadline is not None and steps % CHECK_EVERY == 0 and deadline.passed():
            return None
        seat = engine.to_act(state)
        state = engine.step(state, seat, game.policy(state, seat, rng))
    return state


class _Race:
    """Candidates compared on the same samples, each by its difference to the heuristic's choice
    (candidate 0, never dropped): pairing cancels the luck of the deal. Candidates clearly behind
    the leader are dropped, so the rest get more of the budget. Nothing stops the race early:
    dropping candidates that looked short of the margin after a few samples, or taking a leader
    that looked past it, lost rounds in simulation (docs/bots.md)."""

    def __init__(self, count: int):
        self.active = list(range(count))
        self.sums = [0.0] * count
        self.squares = [0.0] * count
        self.samples = 0

    def add(self, values: dict[int, float]) -> None:
        base = values[0]
        for i in self.active:
            d = values[i] - base
            self.sums[i] += d
            self.squares[i] += d * d
        self.samples += 1
        if self.samples >= PRUNE_AFTER and len(self.active) > 2:
            best = self.leader()
            reach = self.error(best)
            self.active = [i for i in self.active if i in (0, best) or
                           self.mean(i) + PRUNE_Z * (self.error(i) + reach) >= self.mean(best)]

    def mean(self, i: int) -> float:
        return self.sums[i] / self.samples

    def error(self, i: int) -> float:
        n = self.samples
        variance = max(0.0, self.squares[i] / n - self.mean(i) ** 2)
        return (variance / n) ** 0.5

    def leader(self) -> int:
        return max(self.active, key=self.mean)


def search(game: Game, seen, rng: random.Random, budget: Budget) -> Action:
    """The action `search` picks for the seat of the observation `seen`.

    The cyclic garbage collector waits until the decision is made. A search allocates hundreds
    of thousands of short-lived tuples, freed by reference counting without it, while the rules'
    caches fill with lasting ones: its collections, each walking those caches, took a sixth of a
    gandengyan decision's CPU and held its p99 at the cap (docs/performance.md). Paused, the
    survivors are walked once afterwards. The switch is the process's: a search running in
    another thread meanwhile leaves it as it found it, and the collector is back on once the
    search that turned it off ends."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _search(game, seen, rng, budget)
    finally:
        if paused:
            gc.enable()


def _search(game: Game, seen, rng: random.Random, budget: Budget) -> Action:
    candidates = game.candidates(seen, rng)
    if len(candidates) == 1:
        return candidates[0]
    deadline = None if budget.ms is None else Deadline(budget.ms, budget.wall)
    seat = seen.seat
    race = _Race(len(candidates))
    samples = game.samples(seen) if budget.samples is None else budget.samples
    drawing = 0.0  # CPU seconds the last sample took to draw: no rollout looks at the clock then
    while race.samples < samples:
        if deadline is not None and deadline.passed(ahead=drawing):
            break  # another draw would overrun the cap (gandengyan's reading of the hands)
        started = time.thread_time()
        world = game.sample(seen, rng)
        drawing = time.thread_time() - started
        values = {}
        for i in race.active:
            final = rollout(game, game.engine.step(world, seat, candidates[i]), rng, deadline)
            if final is None:
                break
            values[i] = game.value(final, seat)
        if len(values) < len(race.active):
            break
        race.add(values)
        if deadline is not None and deadline.passed():
            break  # also when every candidate ends the round at once and no rollout looks
    if race.samples == 0:
        return candidates[0]
    best = race.leader()
    if race.mean(best) > game.margin + game.confidence * race.error(best):
        return candidates[best]
    return candidates[0]


class Hard:
    """The `hard` strategy: `search` over one ruleset's game, with a budget."""

    def __init__(self, game: Game, budget: Budget | None = None):
        self.game = game
        self.budget = budget or Budget()

    def __call__(self, seen, rng: random.Random) -> Action:
        return search(self.game, seen, rng, self.budget)
