"""Settings for the server bench/api.py starts: the project's own, plus one bare endpoint as the
baseline (bench/api_urls.py). Never used outside the benchmark."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.api_urls"
LOGGING = {"version": 1, "disable_existing_loggers": False}
