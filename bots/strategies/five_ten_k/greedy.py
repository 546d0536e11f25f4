"""510k `greedy`: the plain reference policy (`simulate` and tests; never a seat level), the fair
yardstick `normal` and `hard` are measured against. It goes out whenever a play empties its hand,
never breaks a bomb (no card of a rank held four times or more goes in anything but that whole
bomb), leads the play that sheds the most cards (lowest first, 2s and bombs held back), answers
an opponent with the cheapest plain play that beats it, bombs only an opponent close to going
out, never beats its partner and never bids 包庄."""

import random

from bots.strategies.going_out import going_out
from games.engine.actions import Action, Bid, Cut, Pass, Play
from games.engine.cards import RANK_OF, TWO
from games.engine.rulesets.five_ten_k.combos import rank_counts
from games.engine.rulesets.five_ten_k.listing import extra_candidates
from games.engine.rulesets.five_ten_k.observation import Observation

CLOSE = 3  # an opponent holding this many cards or fewer is close to going out
BOMB = 4  # cards of one rank that make a bomb


def choose(seen: Observation, rng: random.Random) -> Action:
    if seen.phase == "cut":
        return Cut()
    if seen.phase == "bid":
        return Bid(False)
    return play(seen)


def play(seen: Observation) -> Action:
    hand = seen.hand
    plays = [a for a in seen.legal if isinstance(a, Play)]
    out = going_out(hand, plays, extra_candidates)
    if out is not None:
        return out
    counts = rank_counts(hand)
    bombs = {r for r, n in counts.items() if n >= BOMB}
    plain = [p for p in plays if p.reading.type != "bomb"
             and not any(RANK_OF[c] in bombs for c in p.cards)]
    whole = [p for p in plays if p.reading.type == "bomb"
             and len(p.cards) == counts[p.reading.rank]]
    if seen.top is None:
        kept = [p for p in plain if all(RANK_OF[c] != TWO for c in p.cards)]
        options = [_with_extras(hand, p, bombs) for p in kept or plain]
        if not options:
            return min(whole or plays, key=lambda p: (len(p.cards), p.reading.rank))
        return min(options, key=lambda p: (-len(p.cards), p.reading.rank))
    if seen.top_seat in seen.side:
        return Pass()
    if plain:
        return _with_extras(hand, min(plain, key=lambda p: p.reading.rank), bombs)
    close = any(0 < n <= CLOSE for s, n in enumerate(seen.counts) if s not in seen.side)
    if whole and close:
        return min(whole, key=lambda p: (p.reading.length, p.reading.rank))
    return Pass()


def _with_extras(hand, core: Play, bombs: set[int]) -> Play:
    """The core with its lowest allowed extras, none of a bomb's rank or a 2."""
    spare = sorted((c for c in extra_candidates(hand, core)
                    if RANK_OF[c] not in bombs and RANK_OF[c] != TWO), key=RANK_OF.__getitem__)
    return core.with_extras(spare[: core.extras])
