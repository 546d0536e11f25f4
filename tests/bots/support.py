"""Shared by the bot tests: asking a strategy for a move from a state, as the service does."""

import random

from bots.strategies import observe, strategies
from bots.strategies.search import Budget
from games.engine.actions import Action


def level(engine, name: str, budget: Budget | None = None):
    """The `name` strategy for `engine`'s ruleset."""
    return strategies(engine.name, budget)[name]


def decide(strategy, engine, state, rng: random.Random | None = None) -> Action:
    return strategy(observe(engine.name, state, engine.to_act(state)), rng or random.Random(0))


def play_round(engine, state, strategy, rng: random.Random):
    """Every seat played by `strategy` to the round's end (forced passes applied, as the service
    does); returns the final state and the actions the strategy chose."""
    chosen = []
    while not engine.round_over(state):
        seat = engine.to_act(state)
        action = engine.forced_action(state)
        if action is None:
            action = decide(strategy, engine, state, rng)
            chosen.append(action)
        state, _ = engine.apply(state, seat, action)  # raises if the action is not legal
    return state, chosen
