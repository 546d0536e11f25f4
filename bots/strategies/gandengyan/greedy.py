"""Gandengyan `greedy`: the plain rule a casual player follows, the fair yardstick the other
levels are measured against. It goes out whenever a play empties its hand; never breaks a bomb
(no card of a rank held three times or more goes in anything but a bomb of that whole rank);
leads the play that sheds the most cards, lowest first, 2s, jokers and bombs held back; answers
with the cheapest plain play that beats (lowest rank, fewest jokers); bombs only when an opponent
is close to going out; never leaves a hand of jokers only (it forfeits).
"""

import random

from bots.strategies.going_out import going_out
from games.engine.actions import Action, Pass, Play
from games.engine.cards import JOKER, RANK_OF, TWO
from games.engine.rulesets.gandengyan.combos import rank_counts
from games.engine.rulesets.gandengyan.observation import Observation

CLOSE = 2  # an opponent holding this many cards or fewer may go out on the next play
BOMB = 3  # cards of one rank that make a bomb


def _jokers(play: Play) -> int:
    return sum(1 for c in play.cards if RANK_OF[c] == JOKER)


def choose(seen: Observation, rng: random.Random) -> Action:
    others = [n for seat, (n, out) in enumerate(zip(seen.counts, seen.forfeited, strict=True))
              if seat != seen.seat and n and not out]
    return pick(seen.hand, seen.legal, bool(seen.trick), others)


def pick(hand, legal, answering: bool, others: list[int]) -> Action:
    """`others`: the card counts of the opponents still holding cards."""
    plays = [a for a in legal if isinstance(a, Play)]
    out = going_out(hand, plays)
    if out is not None:
        return out
    if not plays:
        return Pass()
    jokers = sum(1 for c in hand if RANK_OF[c] == JOKER)
    safe = [p for p in plays if len(hand) - len(p.cards) > jokers - _jokers(p)]
    if not safe:
        return Pass() if answering else plays[0]
    counts = rank_counts(hand)
    bombs = {r for r in range(JOKER) if counts[r] >= BOMB}
    plain = [p for p in safe if p.reading.type != "bomb"
             and not any(RANK_OF[c] in bombs for c in p.cards)]
    whole = [p for p in safe if p.reading.type == "bomb" and _whole(p, counts)]
    if not answering:
        kept = [p for p in plain if not _jokers(p) and all(RANK_OF[c] != TWO for c in p.cards)]
        options = kept or plain or whole or safe
        return min(options, key=lambda p: (-len(p.cards), _jokers(p), p.reading.rank))
    if plain:
        return min(plain, key=lambda p: (p.reading.rank, _jokers(p)))
    if whole and others and min(others) <= CLOSE:
        return min(whole, key=lambda p: (len(p.cards), p.reading.rank))
    return Pass()


def _whole(play: Play, counts: tuple[int, ...]) -> bool:
    """The bomb holds every card of its rank (jokers may join it)."""
    real = [RANK_OF[c] for c in play.cards if RANK_OF[c] != JOKER]
    return len(real) == counts[real[0]]
