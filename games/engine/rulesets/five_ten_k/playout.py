"""Random playouts: a uniformly random listed action each step, with random extras. Used by the
benchmark, the property tests and as a baseline for bots that simulate with the engine."""

import random

from games.engine.actions import Action, Bid, Cut, Pass
from games.engine.rulesets.five_ten_k import round as flow
from games.engine.rulesets.five_ten_k.listing import answer_plays, lead_plays, with_random_extras
from games.engine.rulesets.five_ten_k.state import Match


def random_action(match: Match, rng: random.Random) -> Action:
    """A uniformly random legal action for the seat to act (a random cut position included)."""
    rnd = match.round
    if rnd.phase == "cut":
        return Cut(None)
    if rnd.phase == "bid":
        return Bid(rng.random() < 0.5)
    hand = rnd.hands[rnd.to_act]
    if rnd.trick:
        plays = answer_plays(hand, rnd.trick[-1].reading)
        if rng.randrange(len(plays) + 1) == len(plays):
            return Pass()
    else:
        plays = lead_plays(hand)
    return with_random_extras(hand, rng.choice(plays), rng)


def random_steps(
    match: Match, rng: random.Random, steps: int | None = None
) -> tuple[Match, list[tuple]]:
    """Random actions until the round is over or `steps` were taken; returns the state and the
    (round, seat, action) moves, the form `games.engine.replay.replay` takes."""
    moves = []
    while match.round.phase != "over" and (steps is None or len(moves) < steps):
        seat = match.round.to_act
        action = random_action(match, rng)
        match, _ = flow.apply(match, seat, action)
        moves.append((match.round.number, seat, action))
    return match, moves


def random_round(match: Match, seed: str, rng: random.Random) -> tuple[Match, list[tuple]]:
    """Deal the next round from `seed` and play it out at random."""
    return random_steps(match._replace(round=flow.new_round(match, seed)), rng)
