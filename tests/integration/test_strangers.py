"""Strangers to a match on PostgreSQL: the unit suite's cases, run here again."""

from tests.test_strangers import *  # noqa: F403
