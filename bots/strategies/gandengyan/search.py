"""Gandengyan for the hard bot's search: samples, the rollout policy, outcomes and candidates."""

import random

from bots.strategies.gandengyan import normal
from bots.strategies.gandengyan.belief import Belief
from bots.strategies.search import Game, shortlist
from games.engine.actions import Action, Play
from games.engine.rulesets.gandengyan import RULESET as ENGINE
from games.engine.rulesets.gandengyan import flow
from games.engine.rulesets.gandengyan.combos import BOMB, bomb_cap
from games.engine.rulesets.gandengyan.observation import Observation, live_counts, unseen_by
from games.engine.rulesets.gandengyan.sampling import sample_state
from games.engine.rulesets.gandengyan.state import Match

# Rounds won is what counts; the points (cards left times the bomb factor, which can reach
# hundreds) only separate candidates that win as often.
POINTS_WEIGHT = 1 / 10000
# Samples per decision: 40 cost about 140 ms of CPU per decision on average, far over the 50 ms a
# table can afford (issue 23); 24 kept `hard`'s edge over `normal` on the same deals (docs/bots.md).
SAMPLES = 24
# The belief read from the last observation searched: its samples are all drawn in one decision.
_last: list = [None]


def sample(seen: Observation, rng: random.Random) -> Match:
    """A deal consistent with the observation, each opponent's hand weighted by how well it
    explains that opponent's actions (bots.strategies.gandengyan.belief)."""
    belief = _last[0]
    if belief is None or belief.seen is not seen:
        belief = _last[0] = Belief(seen)
    return belief.deal(sample_state(seen, rng), rng)


def policy(match: Match, seat: int, rng: random.Random) -> Action:
    """The rollouts play `normal`, the opponents' own heuristic."""
    legal = ENGINE.legal_actions(match, seat)
    if len(legal) == 1:
        return legal[0]  # a pass, or a lead of one card
    return normal.play(seen_in(match, seat), legal)


def seen_in(match: Match, seat: int) -> normal.Seen:
    """`normal.seen_of(observe(match, seat))`, built without the rest of the observation, which
    a rollout would build at every step for nothing (4 % of a search's CPU, docs/performance.md)."""
    rnd = match.round
    return normal.seen_from(seat, rnd.hands[seat], live_counts(rnd), rnd.trick, rnd.to_act,
                            unseen_by(rnd, seat), len(rnd.pile), bomb_cap(match.decks))


def value(match: Match, seat: int) -> float:
    won = 1.0 if match.round.winner == seat else 0.0
    return won + POINTS_WEIGHT * flow.settle(match)["deltas"][seat]


def candidates(obs: Observation, rng: random.Random) -> list[Action]:
    """The heuristic's choice, a pass when allowed, then its next best plays. No bomb unless the
    heuristic chose one, an opponent is about to go out or our own hand is short: a bomb doubles
    every payment, and a search on a few samples overrates the trick it takes."""
    seen = normal.seen_of(obs)
    order = normal.ranked(seen, obs.legal)
    if not normal.threatened(seen):
        order = [order[0], *(a for a in order[1:]
                             if not (isinstance(a, Play) and a.reading.type == BOMB))]
    return shortlist(order[0], [a for a in obs.legal if a in order], order[1:])


GAME = Game(engine=ENGINE, sample=sample, policy=policy, value=value,
            candidates=candidates, margin=0.01, confidence=1.0, samples=lambda seen: SAMPLES)
