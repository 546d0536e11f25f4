"""510k for the hard bot's search: samples, the rollout policy, outcomes and candidates."""

import random

from bots.strategies.five_ten_k import normal
from bots.strategies.search import Game, shortlist
from games.engine.actions import Action, Bid, Play
from games.engine.rulesets.five_ten_k import RULESET
from games.engine.rulesets.five_ten_k import round as flow
from games.engine.rulesets.five_ten_k.combos import rank_counts
from games.engine.rulesets.five_ten_k.sampling import sample_state
from games.engine.rulesets.five_ten_k.state import Match

# The side-score margin (captured + rank points, 200 + 80 at most) adds to the settled points
# scaled down: it separates candidates that settle the same.
MARGIN_WEIGHT = 1 / 100


def policy(match: Match, seat: int, rng: random.Random) -> Action:
    rnd = match.round
    if rnd.phase == "bid":
        return normal.bid(rnd.hands[seat])
    return normal.play(normal.seen_from_state(match, seat), flow.legal_actions(match, seat))


def value(match: Match, seat: int) -> float:
    result = flow.settle(match.options, match.round)
    mine = next(i for i, side in enumerate(result["sides"]) if seat in side)
    margin = result["side_scores"][mine] - result["side_scores"][1 - mine]
    return result["deltas"][seat] + MARGIN_WEIGHT * margin


def candidates(view: dict, legal: list[Action], rng: random.Random) -> list[Action]:
    """The heuristic's choice, then its next cheapest plays (each with its junk extras), and a
    pass when allowed."""
    first = normal.choose(view, legal, rng)
    if view["phase"] == "bid":
        return [first, Bid(not first.solo)]
    if view["phase"] != "play":
        return [first]
    seen = normal.seen_from_view(view)
    counts = rank_counts(seen.hand)
    options = [(p, normal.junk_extras(seen.hand, p, counts)) for p in legal if isinstance(p, Play)]
    options.sort(key=lambda o: normal.cost(o[0], o[1], counts))
    return shortlist(first, legal, (p.with_extras(extras) for p, extras in options))


GAME = Game(engine=RULESET, sample=sample_state, policy=policy, value=value,
            candidates=candidates, margin=0.05)
