"""Bot strategies: pure functions of one seat's observation plus a seeded RNG. A bot never sees a
hidden card: its observation (each ruleset's frozen value, built from the engine state by the
ruleset's `observe`) holds only what that seat may know, its legal actions included.

Levels (the seat levels games offers): `random`, a uniformly random legal action, for every
ruleset; `normal`, a heuristic each ruleset's package registers; `hard`, the determinized search
(`search.py`) over the `Game` the package registers. One more, `greedy`, is a plain reference
policy for tests and `simulate` (the floor `normal` must beat), never offered as a seat level.
Each subpackage here is a ruleset's bots and registers itself when imported: a new ruleset's bots
are a new folder. A ruleset with no bots registered plays every level at random.
"""

import functools
import importlib
import pkgutil
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from bots.strategies.random_bot import RandomBot
from bots.strategies.search import Budget, Game, Hard
from games.engine.actions import Action
from games.engine.registry import get_ruleset


class Observed(Protocol):
    """What every ruleset's observation holds, at least."""

    seat: int
    legal: tuple[Action, ...]
    hand: tuple[int, ...]


Strategy = Callable[[Observed, random.Random], Action]
Observe = Callable[[Any, int, list[Action] | None], Observed]  # (state, seat, legal)


class Basic(NamedTuple):
    """The least observation: a seat, its legal actions and, where the caller knows it, its hand.
    A ruleset with no bots of its own is observed so (its bots play at random)."""

    seat: int
    legal: tuple[Action, ...]
    hand: tuple[int, ...] = ()


@dataclass(frozen=True)
class RulesetBots:
    observe: Observe
    normal: Strategy
    game: Game  # what `hard` searches with
    # Simulations of team play only: the round's sides once the deal fixes them (None: not yet),
    # so that the referee can seat each level's team together (bots.simulation).
    sides: Callable[[Any], tuple[tuple[int, ...], ...] | None] | None = None
    greedy: Strategy | None = None  # the reference floor (tests, simulate); None: `normal`
    # Simulations only: the names of the faults an action makes, which `simulate` counts.
    faults: Callable[[Any, Action], list[str]] | None = None


REGISTERED: dict[str, RulesetBots] = {}


def register(ruleset: str, observe: Observe, normal: Strategy, game: Game, sides=None,
             greedy=None, faults=None) -> None:
    REGISTERED[ruleset] = RulesetBots(observe, normal, game, sides, greedy, faults)


@functools.cache
def _import_all() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            importlib.import_module(f"{__name__}.{module.name}")


def registered() -> dict[str, RulesetBots]:
    """Every ruleset's bots, the subpackages imported on first use (each registers itself; one
    imported directly before, as a test may, must not hide the others)."""
    _import_all()
    return REGISTERED


def observe(ruleset: str, state, seat: int, legal: list[Action] | None = None):
    """`seat`'s observation of `state`: what a strategy of `ruleset` decides on."""
    bots = registered().get(ruleset)
    if bots is None:
        engine = get_ruleset(ruleset)
        return Basic(seat, tuple(engine.legal_actions(state, seat) if legal is None else legal))
    return bots.observe(state, seat, legal)


def strategies(ruleset: str, budget: Budget | None = None) -> dict[str, Strategy]:
    """Every level's strategy for `ruleset` (and `greedy`), `hard` with the given budget."""
    randomly = RandomBot(get_ruleset(ruleset))
    bots = registered().get(ruleset)
    if bots is None:
        return {"random": randomly, "greedy": randomly, "normal": randomly, "hard": randomly}
    return {"random": randomly, "greedy": bots.greedy or bots.normal, "normal": bots.normal,
            "hard": Hard(bots.game, budget)}


DEFAULT_BUDGET = Budget()


@functools.cache
def _levels(ruleset: str, budget: Budget) -> dict[str, Strategy]:
    return strategies(ruleset, budget)


def choose_action(level: str, ruleset: str, observation, rng: random.Random) -> Action:
    """The action of a `level` bot, `hard` with DEFAULT_BUDGET."""
    return _levels(ruleset, DEFAULT_BUDGET)[level](observation, rng)
