"""What `simulate` counts as a gandengyan bot's faults: a single led into an opponent holding one
card (it goes out on the next rank or a 2) while another lead was possible."""

from games.engine.actions import Play
from games.engine.rulesets.gandengyan.combos import SINGLE
from games.engine.rulesets.gandengyan.observation import Observation


def faults(seen: Observation, action) -> list[str]:
    if seen.trick or not isinstance(action, Play) or action.reading.type != SINGLE:
        return []
    if len(action.cards) == len(seen.hand):
        return []  # going out
    if not any(n == 1 for s, n in enumerate(seen.live) if s != seen.seat):
        return []
    others = [p for p in seen.legal if isinstance(p, Play) and p.reading.type != SINGLE]
    return ["single_into_one_card"] if others else []
