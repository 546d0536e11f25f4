"""Gandengyan `greedy`: the plain rule a casual player follows, the floor the other levels are
measured against. Go out when possible; lead the longest play, lowest first; answer with the
cheapest beating play (lowest rank, fewest jokers); bomb only when an opponent is nearly out; never
leave a hand of jokers only (it forfeits).
"""

import random

from games.engine.actions import Action, Pass, Play
from games.engine.cards import JOKER, RANK_OF
from games.engine.rulesets.gandengyan.observation import Observation

NEAR_OUT = 2  # an opponent with this many cards or fewer may go out soon


def _jokers(play: Play) -> int:
    return sum(1 for c in play.cards if RANK_OF[c] == JOKER)


def choose(seen: Observation, rng: random.Random) -> Action:
    others = [n for seat, (n, out) in enumerate(zip(seen.counts, seen.forfeited, strict=True))
              if seat != seen.seat and n and not out]
    return pick(seen.hand, seen.legal, bool(seen.trick), others)


def pick(hand, legal: list[Action], answering: bool, others: list[int]) -> Action:
    """`others`: the card counts of the opponents still holding cards."""
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return Pass()
    for p in plays:
        if len(p.cards) == len(hand):
            return p
    jokers = sum(1 for c in hand if RANK_OF[c] == JOKER)
    safe = [p for p in plays if len(hand) - len(p.cards) > jokers - _jokers(p)]
    if not safe:
        return Pass() if answering else plays[0]
    plain = [p for p in safe if p.reading.type != "bomb"]
    if not answering:
        return min(plain or safe, key=lambda p: (-len(p.cards), _jokers(p), p.reading.rank))
    if plain:
        return min(plain, key=lambda p: (p.reading.rank, _jokers(p)))
    if others and min(others) <= NEAR_OUT:
        return min(safe, key=lambda p: (len(p.cards), p.reading.rank))
    return Pass()
