"""Random playouts through the public interface: a uniformly random listed action each step,
applied with `apply`. Used by the benchmark, the property tests and as a bots' baseline."""

import random

from games.engine.rulesets.gandengyan.ruleset import Gandengyan
from games.engine.rulesets.gandengyan.state import Match

RULES = Gandengyan()


def random_steps(state: Match, rng: random.Random,
                 steps: int | None = None) -> tuple[Match, list[tuple]]:
    """Random actions until the round is over or `steps` were taken; returns the state and the
    (round, seat, action) moves, the form `games.engine.replay.replay` takes."""
    moves = []
    while state.round.winner is None and (steps is None or len(moves) < steps):
        seat = state.round.to_act
        actions = RULES.legal_actions(state, seat)
        action = actions[int(rng.random() * len(actions))]  # uniform; cheaper than rng.choice
        state, _ = RULES.apply(state, seat, action)
        moves.append((state.round.number, seat, action))
    return state, moves


def random_match(options: dict, humans, seed: str) -> tuple[Match, list[str], list[tuple]]:
    """A whole match at random: its final state, round seeds and moves, all derived from `seed`."""
    rng = random.Random(seed)
    state = RULES.new_match(options, humans)
    seeds, moves = [], []
    while RULES.table(state).needs_round:
        seeds.append(f"{seed}/{len(seeds) + 1}")
        state, played = random_steps(RULES.start_round(state, seeds[-1]), rng)
        moves.extend(played)
    return state, seeds, moves
