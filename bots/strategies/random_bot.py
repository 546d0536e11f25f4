"""The baseline: a uniformly random legal action, with random valid extras (带牌) where a listed
play allows them."""

import random

from games.engine.actions import Action, Play
from games.engine.ruleset import Ruleset


class RandomBot:
    def __init__(self, engine: Ruleset):
        self.engine = engine

    def __call__(self, seen, rng: random.Random) -> Action:
        if not seen.legal:
            raise ValueError("a bot is asked to act only when it has a legal action")
        action = rng.choice(seen.legal)
        if isinstance(action, Play) and action.extras:
            candidates = self.engine.extra_candidates(seen.hand, action)
            return action.with_extras(rng.sample(candidates, rng.randint(0, action.extras)))
        return action
