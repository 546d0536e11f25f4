"""games.sql against the ORM on PostgreSQL: the unit suite's cases, run here again."""

from tests.test_sql import *  # noqa: F403
