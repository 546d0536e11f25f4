"""Ruleset names as clients send them, mapped to their engines."""

from games.engine.errors import IllegalAction
from games.engine.ruleset import Ruleset
from games.engine.rulesets.five_ten_k import FiveTenK
from games.engine.rulesets.gandengyan import Gandengyan

RULESETS: dict[str, Ruleset] = {"gandengyan": Gandengyan(), "510k": FiveTenK()}


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise IllegalAction(
            "unknown_ruleset", f"unknown ruleset {name!r}", known=sorted(RULESETS)
        ) from None
