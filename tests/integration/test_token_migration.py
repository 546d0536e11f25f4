"""The plain-text token migration on PostgreSQL: the unit suite's cases, run here again."""

from tests.test_token_migration import *  # noqa: F403
