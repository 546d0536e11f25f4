"""On PostgreSQL: a Last-Event-ID out of range is refused as on SQLite, and a resume's view
repeats none of the events its catch-up delivered (the unit suite's cases, run here again)."""

import pytest

from tests.api.test_bad_inputs import (  # noqa: F401 (a test run here again)
    test_a_streams_last_event_id_header_is_a_whole_number_as_query_numbers_are,
)
from tests.api.test_streams import (  # noqa: F401 (a fixture)
    seeded,
    test_a_reader_who_reconnects_with_last_event_id_misses_nothing_and_gets_nothing_twice,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def match(auth_client) -> dict:
    """A match waiting for people: no bot plays in it. The unit suite's all-bot match would be
    played by the real worker here, and its writes deadlocked with the flush at the test's end."""
    return auth_client.post("/api/v1/matches/", {"ruleset": "gandengyan",
                                                 "seats": [{"type": "human"}] * 4},
                            format="json").json()
