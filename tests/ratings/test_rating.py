"""Ratings: a finished match rates its players once, in the transaction of its last settlement
(a second try, or a transaction that fails half-way, leaves one rating change per player), by
the ruleset's sides and places, a bot level as one player, leavers last; aborted matches are
not rated."""

import random

import pytest
from django.db import transaction

from games import hooks, sql
from games.engine.registry import get_ruleset
from games.models import Match, Seat
from games.services import match_abort
from ratings.models import Rating, RatingChange
from ratings.services import MODEL, match_rate, places
from scoring.models import ScoreEntry
from tests.matchplay import counted_seeds, create, new_player, play_through, played_out

pytestmark = pytest.mark.django_db(transaction=True)
TWO_PEOPLE = [{"type": "human"}, {"type": "human"}]


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "ratings")


def two_people_match() -> tuple[list, int]:
    first, second = new_player(), new_player()
    view = create(first, "highcard", {"players": 2, "rounds": 1}, TWO_PEOPLE)
    second.post("/matches/join/", {"code": view["invite_code"]})
    return [first, second], view["id"]


def finish(match_id: int) -> tuple[Match, list[Seat], list[dict]]:
    """What the match's end announced: the match, its seats, its sides."""
    match = Match.objects.get(pk=match_id)
    engine = get_ruleset(match.ruleset)
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    return match, seats, engine.sides(engine.from_json(match.snapshot))


def ratings_now() -> list[tuple]:
    return sorted(Rating.objects.values_list("user_id", "bot_level", "mu", "sigma", "matches"),
                  key=str)


def test_a_finished_match_rates_each_person_once_by_its_standing():
    clients, match_id = two_people_match()
    played_out(clients, match_id, random.Random(1))
    match, seats, sides = finish(match_id)
    changes = {c.seat: c for c in RatingChange.objects.filter(match=match)}
    assert sorted(changes) == [0, 1]
    start = MODEL.rating()
    for side in sides:
        change = changes[side["seats"][0]]
        assert change.rank == side["rank"] and change.sides == 2
        ledger = ScoreEntry.objects.filter(round__match=match, seat=change.seat)
        assert change.points == sum(ledger.values_list("delta", flat=True))
        rating = change.rating
        assert (rating.user_id, rating.ruleset, rating.matches) == (
            seats[change.seat].user_id, "highcard", 1)
        assert (rating.mu, rating.sigma, rating.ordinal) == (change.mu, change.sigma,
                                                             change.ordinal)
        assert rating.sigma < start.sigma
        assert change.delta == pytest.approx(rating.ordinal - start.ordinal())
    if sides[0]["rank"] < sides[1]["rank"]:
        winner, loser = (changes[side["seats"][0]].rating for side in sides)
        assert winner.mu > start.mu > loser.mu and (winner.wins, loser.wins) == (1, 0)


def test_rating_again_a_rated_match_changes_nothing():
    clients, match_id = two_people_match()
    played_out(clients, match_id, random.Random(2))
    before = ratings_now()
    with transaction.atomic():  # as in the act: its lock holds to the end
        assert match_rate(*finish(match_id)) is None
        assert hooks.announce_match_finished(*finish(match_id)) == []
    assert ratings_now() == before and RatingChange.objects.count() == 2


def test_the_settling_act_run_twice_rates_once():
    """The last act sent again (a retried task or request) finds the match over: nothing is
    rated again."""
    clients, match_id = two_people_match()
    versions = []
    original = sql.write

    def noting(match, *args, **kwargs):
        versions.append((match.version, match.status))
        return original(match, *args, **kwargs)

    sql.write = noting
    try:
        played_out(clients, match_id, random.Random(3))
    finally:
        sql.write = original
    last = next(v for v, status in versions if status == Match.Status.FINISHED)
    before = ratings_now()
    for client in clients:
        status, data = client.post(f"/matches/{match_id}/act/", {
            "expected_version": last - 1, "action": {"type": "play", "cards": [0]}})
        assert status == 409 and data["error"]["code"] in ("stale_version", "match_over")
    assert ratings_now() == before and RatingChange.objects.count() == 2


def test_a_transaction_that_fails_half_way_rates_nothing_and_the_retry_rates_once(monkeypatch):
    """The transaction of the match's last act fails after its one write (the ratings with
    it): the settlement and the ratings roll back together; played again, the match is rated
    once."""
    clients, match_id = two_people_match()
    original, failed = sql.write, []

    def failing(match, *args, **kwargs):
        original(match, *args, **kwargs)
        if match.status == Match.Status.FINISHED and not failed:
            assert RatingChange.objects.filter(match=match).count() == 2  # written, uncommitted
            failed.append(match.version)
            raise RuntimeError("the database went away")

    monkeypatch.setattr(sql, "write", failing)
    with pytest.raises(RuntimeError):
        played_out(clients, match_id, random.Random(4))
    assert failed and Match.objects.get(pk=match_id).status == Match.Status.ACTIVE
    assert not RatingChange.objects.exists()
    assert not Rating.objects.filter(matches__gt=0).exists()
    played_out(clients, match_id, random.Random(4))
    assert RatingChange.objects.filter(match_id=match_id).count() == 2
    assert sorted(Rating.objects.values_list("matches", flat=True)) == [1, 1]


def test_bots_are_rated_one_player_per_level_and_people_flagged_as_guests():
    person = new_player()
    seats = [{"type": "human"}, {"type": "bot", "level": "random"},
             {"type": "bot", "level": "random"}, {"type": "bot", "level": "hard"}]
    view = create(person, "highcard", {"players": 4, "rounds": 1}, seats)
    play_through(person, view, random.Random(5))
    ratings = {(r.user_id is not None, r.bot_level): r for r in Rating.objects.all()}
    assert set(ratings) == {(True, ""), (False, "random"), (False, "hard")}
    assert ratings[True, ""].user.is_guest
    random_bot = ratings[False, "random"]
    change = random_bot.changes.get()
    assert change.seat in (1, 2) and random_bot.matches == 1
    assert RatingChange.objects.filter(match_id=view["id"]).count() == 3


def test_a_person_who_left_counts_last():
    assert places([{"seats": [0], "rank": 1}, {"seats": [1], "rank": 2},
                   {"seats": [2], "rank": 2}], left={0}) == [3, 1, 1]
    assert places([{"seats": [0, 2], "rank": 1}, {"seats": [1, 3], "rank": 2}],
                  left={2}) == [2, 1]
    assert places([{"seats": [0], "rank": 1}, {"seats": [1], "rank": 2}],
                  left={0, 1}) == [1, 2]
    clients, match_id = two_people_match()
    played_out(clients, match_id, random.Random(6))
    match, seats, sides = finish(match_id)
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    best = sides[0]["seats"][0]
    match.autoplay = {str(best): "timeout"}
    with transaction.atomic():
        writes = match_rate(match, seats, sides)
        sql.write(match, ("autoplay",), *writes.added, changed=writes.changed)
    change = RatingChange.objects.get(seat=best)
    assert change.left and change.rank == 2 and change.rating.wins == 0


def test_an_aborted_match_is_not_rated():
    clients, match_id = two_people_match()
    match_abort(match_id=match_id, reason="stuck")
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_points_are_what_a_seat_won_or_lost_from_its_starting_score():
    person = new_player()
    view = create(person, "gandengyan", {"players": 4, "starting_score": 3},
                  [{"type": "human"}] + [{"type": "bot", "level": "random"}] * 3)
    play_through(person, view, random.Random(7))
    match, seats, _ = finish(view["id"])
    change = RatingChange.objects.get(match=match, seat=0)
    ledger = ScoreEntry.objects.filter(round__match=match, seat=0)
    assert change.points == sum(ledger.values_list("delta", flat=True)) == seats[0].score - 3
