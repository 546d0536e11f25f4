"""The schema's bounds against the server on PostgreSQL: the unit suite's cases, run here
again."""

from tests.test_schema_bounds import *  # noqa: F403
