"""The 510k ruleset (510K with 包庄 solo bids and 喜分 bomb bonuses), 4 or 2 players."""

from games.engine.rulesets.five_ten_k.ruleset import FiveTenK

RULESET = FiveTenK()
