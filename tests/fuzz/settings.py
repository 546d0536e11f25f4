"""The fuzzed server's settings: the embedded defaults, throttles raised so that the sign-in
endpoints are exercised rather than answered 429 (their 429 has its own tests)."""

from config.settings import *  # noqa: F403
from config.settings import REST_FRAMEWORK

REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
    scope: "1000000/minute" for scope in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}}
