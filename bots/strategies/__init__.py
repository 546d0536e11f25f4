"""Bot strategies: pure functions of one seat's view and legal actions plus a seeded RNG. A bot
never sees a hidden card: it gets exactly what the API would show that seat.

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
from typing import Any

from bots.strategies.random_bot import RandomBot
from bots.strategies.search import Budget, Game, Hard
from games.engine.actions import Action
from games.engine.registry import get_ruleset

Strategy = Callable[[dict, list[Action], random.Random], Action]


@dataclass(frozen=True)
class RulesetBots:
    normal: Strategy
    game: Game  # what `hard` searches with
    # Simulations of team play only: the round's sides once the deal fixes them (None: not yet),
    # so that the referee can seat each level's team together (bots.simulation).
    sides: Callable[[Any], tuple[tuple[int, ...], ...] | None] | None = None
    greedy: Strategy | None = None  # the reference floor (tests, simulate); None: `normal`


REGISTERED: dict[str, RulesetBots] = {}


def register(ruleset: str, normal: Strategy, game: Game, sides=None, greedy=None) -> None:
    REGISTERED[ruleset] = RulesetBots(normal, game, sides, greedy)


def registered() -> dict[str, RulesetBots]:
    """Every ruleset's bots, the subpackages imported on first use (each registers itself)."""
    if not REGISTERED:
        for module in pkgutil.iter_modules(__path__):
            if module.ispkg:
                importlib.import_module(f"{__name__}.{module.name}")
    return REGISTERED


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


def choose_action(level: str, ruleset: str, view: dict, legal: list[Action],
                  rng: random.Random) -> Action:
    """The action of a `level` bot, `hard` with DEFAULT_BUDGET."""
    return _levels(ruleset, DEFAULT_BUDGET)[level](view, legal, rng)
