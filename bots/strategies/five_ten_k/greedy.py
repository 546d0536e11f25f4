"""510k `greedy`: the plain reference policy (`simulate` and tests; never a seat level), the floor
`normal` and `hard` are measured against. Lead the longest low combination, never beat the
partner, take point tricks with the cheapest plain answer, bomb only for 20+ points or when an
opponent is nearly out, never bid 包庄."""

import random

from games.engine.actions import Action, Bid, Cut, Pass, Play
from games.engine.cards import ACE, RANK_OF
from games.engine.rulesets.five_ten_k.listing import extra_candidates
from games.engine.rulesets.five_ten_k.observation import Observation

NEARLY_OUT = 3
BOMB_POINTS = 20


def choose(seen: Observation, rng: random.Random) -> Action:
    if seen.phase == "cut":
        return Cut()
    if seen.phase == "bid":
        return Bid(False)
    return play(seen)


def _lowest_extras(hand, core: Play) -> Play:
    return core.with_extras(sorted(extra_candidates(hand, core), key=RANK_OF.__getitem__)[
        : core.extras])


def play(seen: Observation) -> Action:
    plays = [a for a in seen.legal if isinstance(a, Play)]
    plain = [p for p in plays if p.reading.type != "bomb"]
    bombs = [p for p in plays if p.reading.type == "bomb"]
    if seen.top is None:
        longest = max(plain or plays, key=lambda p: (len(p.cards) + p.extras, -p.reading.rank))
        return _lowest_extras(seen.hand, longest)
    if seen.top_seat in seen.side or not plays:
        return Pass()
    near = any(0 < n <= NEARLY_OUT for s, n in enumerate(seen.counts) if s not in seen.side)
    if plain:
        cheapest = min(plain, key=lambda p: p.reading.rank)
        if seen.trick_points or near or cheapest.reading.rank < ACE:
            return _lowest_extras(seen.hand, cheapest)
    if bombs and (seen.trick_points >= BOMB_POINTS or near):
        return min(bombs, key=lambda p: (p.reading.length, p.reading.rank))
    return Pass()
