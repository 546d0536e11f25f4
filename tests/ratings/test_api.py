"""GET /players/{id}/ (a person's profile) and GET /leaderboards/{ruleset}/ (keyset pages with
ranks): public, their shapes as OpenAPI states them, their cost fixed whatever the number of
players."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import User
from games.engine.registry import RULESETS
from ratings.models import Rating, RatingChange
from ratings.services import ordinal
from tests.matchplay import counted_seeds, create, new_player, played_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "ratings-api")


def anyone() -> APIClient:
    return APIClient()


def board(query: str = "", ruleset: str = "highcard") -> dict:
    response = anyone().get(f"/api/v1/leaderboards/{ruleset}/{query}")
    assert response.status_code == 200, response.content
    return response.json()


def rated(count: int, ruleset: str = "highcard") -> list[Rating]:
    """`count` people's ratings, written directly: some share an ordinal (the order then takes
    the later rating first)."""
    users = User.objects.bulk_create(User(username=f"{ruleset}-{i}") for i in range(count))
    return Rating.objects.bulk_create(
        Rating(ruleset=ruleset, user=u, mu=20 + i % 7, sigma=3, ordinal=ordinal(20 + i % 7, 3),
               matches=i) for i, u in enumerate(users))


def test_the_players_of_a_match_have_profiles_and_are_on_the_leaderboard():
    first, second = new_player(), new_player()
    view = create(first, "highcard", {"players": 3, "rounds": 1},
                  [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "hard"}])
    second.post("/matches/join/", {"code": view["invite_code"]})
    played_out([first, second], view["id"], random.Random(1))
    entries = board()["results"]
    assert [e["rank"] for e in entries] == [1, 2, 3]
    assert [e["ordinal"] for e in entries] == sorted((e["ordinal"] for e in entries),
                                                     reverse=True)
    people = [e["player"] for e in entries if e["player"]["id"] is not None]
    assert len(people) == 2 and all(p["guest"] and p["bot_level"] is None for p in people)
    assert [e["player"]["bot_level"] for e in entries if e["player"]["id"] is None] == ["hard"]
    assert all(e["provisional"] and e["matches"] == 1 for e in entries)

    person = people[0]
    response = anyone().get(f"/api/v1/players/{person['id']}/")
    assert response.status_code == 200
    profile = response.json()
    assert (profile["id"], profile["name"], profile["guest"]) == (person["id"], person["name"],
                                                                  True)
    assert profile["matches"] == 1 and profile["wins"] in (0, 1)
    [rating] = profile["ratings"]
    change = RatingChange.objects.get(rating__user_id=person["id"])
    assert rating["ruleset"] == "highcard" and rating["provisional"]
    assert rating["average_score"] == change.points
    assert [h["match"] for h in rating["history"]] == [view["id"]]
    [recent] = profile["recent"]
    assert (recent["match"], recent["ruleset"], recent["place"], recent["sides"],
            recent["points"]) == (view["id"], "highcard", change.rank, 3, change.points)


def test_pages_follow_each_other_with_ranks_whatever_the_ties():
    ratings = rated(23)
    expected = sorted(ratings, key=lambda r: (-r.ordinal, -r.pk))
    seen, query = [], "?limit=5"
    while True:
        page = board(query)
        seen += [(e["rank"], e["rating"]) for e in page["results"]]
        if page["next"] is None:
            break
        query = f"?limit=5&after={page['next']['after']}&rank={page['next']['rank']}"
    assert seen == [(i, r.pk) for i, r in enumerate(expected, 1)]


def test_a_board_and_a_profile_cost_the_same_queries_at_any_size():
    def queries(path: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert anyone().get(path).status_code == 200
        return len(captured)

    small = rated(3)
    first = queries("/api/v1/leaderboards/highcard/?limit=2")
    later = queries(f"/api/v1/leaderboards/highcard/?limit=2&after={small[0].pk}&rank=1")
    profile = queries(f"/api/v1/players/{small[0].user_id}/")
    rated(60, "gandengyan")
    assert queries("/api/v1/leaderboards/highcard/?limit=2") == first
    assert queries(f"/api/v1/leaderboards/highcard/?limit=2&after={small[0].pk}&rank=1") == later
    assert queries(f"/api/v1/players/{small[0].user_id}/") == profile <= 3


def test_unknown_rulesets_players_and_cursors_are_not_found():
    for path in ("/api/v1/leaderboards/chess/", "/api/v1/players/999999/",
                 "/api/v1/leaderboards/highcard/?after=999999"):
        response = anyone().get(path)
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    assert "gandengyan" in RULESETS and board(ruleset="gandengyan") == {
        "ruleset": "gandengyan", "results": [], "next": None}


def test_a_profile_with_no_rated_match_is_empty():
    new_player()
    response = anyone().get(f"/api/v1/players/{User.objects.get().pk}/")
    assert response.status_code == 200
    assert response.json()["ratings"] == [] and response.json()["recent"] == []


def test_a_deactivated_account_leaves_the_board_and_its_profile_is_gone():
    ratings = rated(3)
    User.objects.filter(pk=ratings[1].user_id).update(is_active=False)
    assert {e["rating"] for e in board()["results"]} == {ratings[0].pk, ratings[2].pk}
    assert anyone().get(f"/api/v1/players/{ratings[1].user_id}/").status_code == 404
