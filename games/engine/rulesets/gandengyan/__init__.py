"""干瞪眼 (gandengyan): wild jokers, the +1 rule, bombs by size, draw after an unanswered play."""

from games.engine.rulesets.gandengyan.ruleset import Gandengyan

RULESET = Gandengyan()
