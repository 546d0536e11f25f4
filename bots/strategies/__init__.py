"""Bot strategies: pure functions of one seat's view and legal actions plus a seeded RNG. A bot
never sees a hidden card: it gets exactly what the API would show that seat.

- `random`: a uniformly random legal action (random_bot).
- `normal`: a heuristic per ruleset (gandengyan_normal, five_ten_k_normal).
- `hard`: determinized Monte Carlo search over the engine (hard, *_hard), within a budget.
"""

import random
from collections.abc import Callable

from bots.strategies import (
    five_ten_k_hard,
    five_ten_k_normal,
    gandengyan_hard,
    gandengyan_normal,
    random_bot,
)
from bots.strategies.hard import Budget, Hard
from games.engine.actions import Action

LEVELS = ("random", "normal", "hard")

Strategy = Callable[[str, dict, list[Action], random.Random], Action]

NORMAL: dict[str, Strategy] = {
    "gandengyan": gandengyan_normal.choose,
    "510k": five_ten_k_normal.choose,
}
SEARCH_GAMES = {"gandengyan": gandengyan_hard.GAME, "510k": five_ten_k_hard.GAME}


def normal(ruleset_name: str, view: dict, legal: list[Action], rng: random.Random) -> Action:
    return NORMAL[ruleset_name](ruleset_name, view, legal, rng)


def strategies(budget: Budget | None = None) -> dict[str, Strategy]:
    """Every level, `hard` with the given budget (default: 200 ms per decision)."""
    return {"random": random_bot.choose, "normal": normal, "hard": Hard(SEARCH_GAMES, budget)}


STRATEGIES: dict[str, Strategy] = strategies()


def choose_action(
    level: str, ruleset_name: str, view: dict, legal: list[Action], rng: random.Random
) -> Action:
    return STRATEGIES[level](ruleset_name, view, legal, rng)
