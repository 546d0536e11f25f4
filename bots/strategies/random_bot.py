"""The baseline: a uniformly random legal action, with random valid extras (带牌) where a listed
play allows them; like every level, it takes a play that empties its hand."""

import random

from bots.strategies.going_out import going_out
from games.engine.actions import Action, Play
from games.engine.ruleset import Ruleset


class RandomBot:
    def __init__(self, engine: Ruleset):
        self.engine = engine

    def __call__(self, seen, rng: random.Random) -> Action:
        if not seen.legal:
            raise ValueError("a bot is asked to act only when it has a legal action")
        out = going_out(seen.hand, seen.legal, self.engine.extra_candidates)
        if out is not None:
            return out
        action = rng.choice(seen.legal)
        if isinstance(action, Play) and action.extras:
            candidates = self.engine.extra_candidates(seen.hand, action)
            return action.with_extras(rng.sample(candidates, rng.randint(0, action.extras)))
        return action
