"""Gandengyan for the hard bot's search: samples, the rollout policy, outcomes and candidates."""

import random

from bots.strategies.gandengyan import normal
from bots.strategies.search import Game, shortlist
from games.engine.actions import Action, Play
from games.engine.rulesets.gandengyan import RULESET as ENGINE
from games.engine.rulesets.gandengyan import flow
from games.engine.rulesets.gandengyan.sampling import sample_state
from games.engine.rulesets.gandengyan.state import Match

# Rounds won is what counts; the points (cards left times the bomb factor, which can reach
# hundreds) only separate candidates that win as often.
POINTS_WEIGHT = 1 / 10000


def policy(match: Match, seat: int, rng: random.Random) -> Action:
    return normal.play(normal.seen_from_state(match, seat), ENGINE.legal_actions(match, seat))


def value(match: Match, seat: int) -> float:
    won = 1.0 if match.round.winner == seat else 0.0
    return won + POINTS_WEIGHT * flow.settle(match)["deltas"][seat]


def candidates(view: dict, legal: list[Action], rng: random.Random) -> list[Action]:
    """The heuristic's choice, then its next cheapest plays and a pass when allowed."""
    first = normal.choose(view, legal, rng)
    hand = tuple(card["id"] for card in view["hand"])
    plays = sorted((a for a in legal if isinstance(a, Play)), key=lambda p: normal.cost(p, hand))
    return shortlist(first, legal, plays)


GAME = Game(engine=ENGINE, sample=sample_state, policy=policy, value=value,
            candidates=candidates, margin=0.01, confidence=1.0)
