"""The browser tests' server: the embedded defaults, and the rulesets that exist for the tests
(tests/rulesets/), so that the web table plays a ruleset it has no module of its own for."""

from config.settings import *  # noqa: F403
from games.engine.registry import discover

discover("tests.rulesets")
