"""NUL characters refused on PostgreSQL, which cannot store them: the unit suite's cases, run
here again."""

from tests.test_nul import *  # noqa: F403
