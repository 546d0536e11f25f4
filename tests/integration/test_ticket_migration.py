"""The stream tickets' migration on PostgreSQL (the unit suite's case, run here again)."""

from tests.test_ticket_migration import *  # noqa: F403
