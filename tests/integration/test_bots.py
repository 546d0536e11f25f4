"""Bot-only matches of both rulesets, every level, played to their end by the real worker."""

import pytest

from tests.integration.bot_matches import assert_whole, bot_only_match, wait_until_finished

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 300


@pytest.mark.parametrize(
    ("ruleset", "options", "levels"),
    [
        ("510k", {"rounds": 1}, ["hard", "normal", "random", "normal"]),
        ("510k", {"rounds": 1, "players": 2}, ["hard", "normal"]),
        ("gandengyan", {"starting_score": 10}, ["hard", "normal", "random", "normal"]),
    ],
)
def test_a_bot_only_match_is_played_to_its_end(django_user_model, ruleset, options, levels):
    owner = django_user_model.objects.create_user("owner", password="x" * 12)
    match = bot_only_match(owner, ruleset, options, levels)
    match = wait_until_finished(match, TIMEOUT)
    assert match.standings
    assert_whole(match)
