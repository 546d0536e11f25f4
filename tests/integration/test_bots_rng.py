"""The server's turns' randomness on PostgreSQL: the unit suite's cases, run here again."""

from tests.bots.test_rng import *  # noqa: F403
