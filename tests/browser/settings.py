"""The browser tests' server: the embedded defaults, and the rulesets that exist for the tests
(tests/rulesets/), so that the web table plays a ruleset it has no module of its own for. Every
test's people sign up from one address: more than the 20 an hour a client may."""

from config.settings import *  # noqa: F403
from config.settings import REST_FRAMEWORK
from games.engine.registry import discover

discover("tests.rulesets")
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {**REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                            "signup": "1000/hour"}
# Bots at once, as the tests play whole matches; a test of the pace sets one in its match.
SERVER_PACE_MS = 0
