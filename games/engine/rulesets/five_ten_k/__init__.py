"""The 510k ruleset (510K with 包庄 solo bids and 喜分 bomb bonuses), 4 or 2 players."""

from games.engine.rulesets.five_ten_k.listing import (
    add_extras,
    extra_candidates,
    with_random_extras,
)
from games.engine.rulesets.five_ten_k.ruleset import FiveTenK, readings

__all__ = ["FiveTenK", "add_extras", "extra_candidates", "readings", "with_random_extras"]
