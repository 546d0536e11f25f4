"""Bot strategies: pure functions of one seat's view and legal actions plus a seeded RNG. A bot
never sees a hidden card: it gets exactly what the API would show that seat."""

import random
from collections.abc import Callable

from bots.strategies import random_bot
from games.engine.actions import Action

LEVELS = ("random", "normal", "hard")

Strategy = Callable[[str, dict, list[Action], random.Random], Action]

# normal and hard play like random until their own strategies are registered here.
STRATEGIES: dict[str, Strategy] = {
    "random": random_bot.choose,
    "normal": random_bot.choose,
    "hard": random_bot.choose,
}


def choose_action(
    level: str, ruleset_name: str, view: dict, legal: list[Action], rng: random.Random
) -> Action:
    return STRATEGIES[level](ruleset_name, view, legal, rng)
