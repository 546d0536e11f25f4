"""The baseline: a uniformly random legal action, with random valid extras (带牌) for a listed
510k core that allows them."""

import random

from games.engine.actions import Action, Play
from games.engine.rulesets.five_ten_k import with_random_extras


def choose(ruleset_name: str, view: dict, legal: list[Action], rng: random.Random) -> Action:
    if not legal:
        raise ValueError("a bot is asked to act only when it has a legal action")
    action = rng.choice(legal)
    if isinstance(action, Play) and action.extras:
        hand = tuple(card["id"] for card in view.get("hand", ()))
        return with_random_extras(hand, action, rng)
    return action
