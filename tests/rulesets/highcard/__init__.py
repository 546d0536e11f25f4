"""High card, a ruleset for the tests only: proof that a ruleset is one folder. Nothing outside
this folder names it; the conftest registers every folder of tests/rulesets/."""

from tests.rulesets.highcard.ruleset import HighCard

RULESET = HighCard()
