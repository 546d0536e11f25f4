"""Rulesets by the name clients send. Each ruleset is a package whose `RULESET` is registered when
its parent package is discovered: adding a ruleset is adding a folder under
`games/engine/rulesets/`, nothing else."""

import importlib
import pkgutil

from games.engine.errors import IllegalAction
from games.engine.ruleset import Ruleset

RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    RULESETS[ruleset.name] = ruleset
    return ruleset


def discover(package: str) -> list[str]:
    """Register the `RULESET` of every subpackage of `package`; returns their names."""
    found = []
    for module in pkgutil.iter_modules(importlib.import_module(package).__path__):
        if module.ispkg:
            ruleset = getattr(importlib.import_module(f"{package}.{module.name}"), "RULESET", None)
            if isinstance(ruleset, Ruleset):
                found.append(register(ruleset).name)
    return found


def get_ruleset(name) -> Ruleset:
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise IllegalAction(
            "unknown_ruleset", f"unknown ruleset {name!r}", known=sorted(RULESETS)
        ) from None


discover("games.engine.rulesets")
