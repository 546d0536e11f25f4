"""Ratings on PostgreSQL: the unit suite's cases that need no bot (rated once, in the
transaction of the last settlement, written with the match's one statement; profiles and
leaderboards), run here again; and two matches of the same people ending at the same moment,
each rated once, neither update lost."""

import random
import threading

import pytest
from django.db import connection

from games.engine.actions import action_from_dict
from games.engine.registry import get_ruleset
from games.models import Match
from ratings.models import Rating, RatingChange
from tests.matchplay import (
    Client,
    act,
    bots,
    choose,
    create,
    http_sender,
    play_through,
    poller,
    sign_in,
)
from tests.ratings.test_api import (  # noqa: F401
    test_a_board_and_a_profile_cost_the_same_queries_at_any_size,
    test_a_deactivated_account_leaves_the_board_and_its_profile_is_gone,
    test_a_profile_with_no_rated_match_is_empty,
    test_pages_follow_each_other_with_ranks_whatever_the_ties,
    test_unknown_rulesets_players_and_cursors_are_not_found,
)
from tests.ratings.test_rating import (  # noqa: F401
    seeded,
    test_a_finished_match_rates_each_person_once_by_its_standing,
    test_a_person_who_left_counts_last,
    test_a_transaction_that_fails_half_way_rates_nothing_and_the_retry_rates_once,
    test_an_aborted_match_is_not_rated,
    test_rating_again_a_rated_match_changes_nothing,
    test_the_settling_act_run_twice_rates_once,
    two_people_match,
)

pytestmark = pytest.mark.django_db(transaction=True)


def one_act_from_the_end(clients, match_id: int, rng: random.Random):
    """Play until the next act would end the match: (the client to act, its view, the act)."""
    engine = get_ruleset("highcard")
    while True:
        views = [c.get(f"/matches/{match_id}/")[1] for c in clients]
        mover = next(i for i, v in enumerate(views) if v["your_turn"])
        action = choose(views[mover], rng)
        state = engine.from_json(Match.objects.get(pk=match_id).snapshot)
        after, _ = engine.apply(state, views[mover]["state"]["seat"], action_from_dict(action))
        while not engine.round_over(after) and (forced := engine.forced_action(after)):
            after, _ = engine.apply(after, engine.to_act(after), forced)
        if engine.round_over(after):
            return clients[mover], views[mover], action
        status, data = act(clients[mover], views[mover], action)
        assert status == 200, data


def test_two_matches_of_the_same_people_ending_at_once_are_each_rated_once():
    clients, first = two_people_match()
    second = clients[0].post("/matches/", {"ruleset": "highcard", "seats": [
        {"type": "human"}, {"type": "human"}], "options": {"players": 2, "rounds": 1}})[1]
    clients[1].post("/matches/join/", {"code": second["invite_code"]})
    finals = [one_act_from_the_end(clients, m, random.Random(m)) for m in (first, second["id"])]
    barrier, answers = threading.Barrier(2), []

    def finish(client, view, action):
        try:
            barrier.wait()
            answers.append(act(client, view, action)[0])
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=final) for final in finals]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200, 200]
    assert RatingChange.objects.count() == 4
    for rating in Rating.objects.all():
        older, newer = rating.changes.order_by("id")
        assert rating.matches == 2 and older.match_id != newer.match_id
        # The later change started from the earlier one's rating: no update was lost.
        assert newer.ordinal - newer.delta == pytest.approx(older.ordinal)
        assert (rating.mu, rating.sigma) == (newer.mu, newer.sigma) and newer.sigma < older.sigma


def test_a_match_against_a_bot_in_the_worker_rates_the_person_and_the_level(live_server):
    """A person against a bot over HTTP, the bot's turns in the Celery worker (which may be the
    one to end the match, and rate it): rated once, the bot level as one player."""
    player = Client(http_sender(live_server.url))
    sign_in(player)
    # A real ruleset: the worker knows no test-only one.
    view = create(player, "510k", {"players": 2, "rounds": 1}, bots(1, "random"))
    view = play_through(player, view, random.Random(9), wait=poller(player))
    assert view["status"] == "finished"
    changes = RatingChange.objects.filter(match_id=view["id"]).select_related("rating")
    assert sorted((c.rating.user_id is None, c.rating.bot_level) for c in changes) == [
        (False, ""), (True, "random")]
    assert Rating.objects.get(bot_level="random", ruleset="510k").matches == 1
