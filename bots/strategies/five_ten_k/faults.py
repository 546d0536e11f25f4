"""What `simulate` counts as a 510k bot's faults: breaking a bomb (4 or more of a rank used in
part), and among them breaking a 喜 bomb, whose 喜分 is then lost or lowered (a 喜 bomb pays
whether played whole or still held at the round's end). Going out is never a fault."""

from games.engine.actions import Play
from games.engine.rulesets.five_ten_k.combos import rank_counts
from games.engine.rulesets.five_ten_k.observation import Observation
from games.engine.rulesets.five_ten_k.settle import xi_tier

BOMB = 4


def faults(seen: Observation, action) -> list[str]:
    if not isinstance(action, Play) or len(action.cards) == len(seen.hand):
        return []
    held = rank_counts(seen.hand)
    found = []
    for rank, used in rank_counts(action.cards).items():
        if used < held[rank] and held[rank] >= BOMB:
            found.append("bomb_broken")
            if xi_tier(rank, held[rank]):
                found.append("xi_broken")
    return found
