"""Settings for a server under bench/locustfile.py: the project's own, except that one address
(the load generator's) may sign up as many guests as the test brings. Never in production."""

from config.settings import *  # noqa: F403
from config.settings import REST_FRAMEWORK

REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {**REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                            "guest": "100000/hour",
                                            "guest_browser": "100000/hour"}
