"""Tables through the API: the public list, matches created from a table or from the site-wide
defaults, options frozen with their hash, and the quick match with its bots (on time through the
task, or late through whoever reads or acts first)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from bots.tasks import recover
from games import services
from games.engine.registry import get_ruleset
from games.models import Event, Match, RulesetDefaults, Seat, Table, options_hash
from tests.matchplay import Client, bots, client_sender, counted_seeds, create, new_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "table-seed")


@pytest.fixture
def player() -> Client:
    return new_player()


def make_table(slug: str, ruleset: str = "510k", options: dict | None = None, **fields) -> Table:
    return Table.objects.create(
        name=slug.replace("-", " "), slug=slug, ruleset=ruleset,
        options=get_ruleset(ruleset).parse_options(options or {}), **fields)


def error(response) -> dict:
    status, data = response
    assert 400 <= status < 500, (status, data)
    return data["error"]


# -- the list ------------------------------------------------------------------------------------


def test_the_list_shows_active_tables_in_order_with_labels_in_english_and_chinese():
    make_table("second", options={"base_score": 5, "dry": "half"}, position=2,
               bot_levels=["hard", "normal", "random"])
    make_table("first", "gandengyan", {"decks": 2}, position=1)
    make_table("hidden", active=False)
    status, data = Client(client_sender(APIClient())).get("/tables/")  # no token needed
    assert status == 200
    assert [t["slug"] for t in data["results"]] == ["first", "second"]
    table = data["results"][1]
    assert table["ruleset_title"] == {"en": "510K", "zh": "五十K"}
    assert table["options"] == get_ruleset("510k").parse_options({"base_score": 5, "dry": "half"})
    assert table["options_hash"] == options_hash(table["options"])
    described = {d["option"]: d for d in table["options_described"]}
    assert described["dry"] == {"option": "dry", "label": {"en": "Dry levels", "zh": "干"},
                                "value": "half", "text": {"en": "half-dry", "zh": "半干"}}
    assert described["base_score"]["label"] == {"en": "Base score", "zh": "底分"}
    assert described["base_score"]["text"] == {"en": "5", "zh": "5"}
    assert table["bot_levels"] == ["hard", "normal", "random"] and table["bots_after"] == 30
    assert table["turn_seconds"] is None
    assert data["results"][0]["options_described"][0]["label"] == {"en": "Decks", "zh": "几副牌"}


# -- creating a match from a table or from the defaults ------------------------------------------


def test_a_match_from_a_table_plays_its_options_and_bots_and_freezes_them(player):
    table = make_table("house", options={"base_score": 5, "dry": "half", "rounds": 2},
                       bot_levels=["hard", "random", "normal"])
    status, view = player.post("/matches/", {"table": "house"})
    assert status == 201 and view["ruleset"] == "510k" and view["status"] == "active"
    assert view["options"] == table.options
    assert view["options_hash"] == options_hash(table.options)
    assert [s["level"] for s in view["seats"]] == [None, "hard", "random", "normal"]
    table.options = {**table.options, "base_score": 9}
    table.save()
    again = player.get(f"/matches/{view['id']}/")[1]
    assert again["options"]["base_score"] == 5 and again["options_hash"] == view["options_hash"]
    assert Match.objects.get(pk=view["id"]).table == table


def test_a_table_that_fixes_its_options_refuses_others(player):
    make_table("fixed", options={"base_score": 5})
    refusal = error(player.post("/matches/", {"table": "fixed", "options": {"base_score": 2}}))
    assert refusal["code"] == "invalid_option"
    assert refusal["details"] == {"option": "base_score", "table": "fixed"}
    assert not Match.objects.exists()
    status, view = player.post("/matches/", {"table": "fixed", "options": {"base_score": 5}})
    assert status == 201 and view["options"]["base_score"] == 5
    seats = [{"type": "human"}, {"type": "bot"}]
    assert error(player.post("/matches/", {"table": "fixed", "seats": seats}))["code"] \
        == "invalid_seats"


def test_a_table_that_allows_overrides_takes_the_clients_options_over_its_own(player):
    make_table("open", options={"base_score": 5, "dry": "none"}, allow_override=True)
    status, view = player.post("/matches/", {"table": "open", "options": {"dry": "full"},
                                             "seats": bots(1)})
    assert status == 201
    assert view["options"] == get_ruleset("510k").parse_options(
        {"players": 2, "base_score": 5, "dry": "full"})


@pytest.mark.parametrize(("body", "code"), [
    ({"table": "nowhere"}, "unknown_table"),
    ({"table": "retired"}, "unknown_table"),
    ({"table": "house", "ruleset": "gandengyan"}, "invalid_input"),
    ({}, "invalid_input"),
    ({"table": 5}, "invalid_input"),
])
def test_create_refuses_a_table_it_cannot_use(player, body, code):
    make_table("house")
    make_table("retired", active=False)
    assert error(player.post("/matches/", body))["code"] == code
    assert not Match.objects.exists()


def test_site_wide_defaults_fill_what_the_client_leaves_out(player):
    RulesetDefaults.objects.create(ruleset="510k", options={"base_score": 3, "rounds": 2,
                                                           "dry": "none"})
    view = player.post("/matches/", {"ruleset": "510k"})[1]
    assert view["options"] == {"players": 4, "base_score": 3, "dry": "none",
                               "xi_mode": "multiplicative", "rounds": 2}
    view = create(player, "510k", {"rounds": 1}, bots(1))
    assert view["options"] == {"players": 2, "base_score": 3, "dry": "none",
                               "xi_mode": "multiplicative", "rounds": 1}
    assert view["options_hash"] == options_hash(view["options"])
    assert player.post("/matches/", {"ruleset": "gandengyan"})[1]["options"] == {
        "decks": 1, "players": 4, "starting_score": 500}


# -- quick match ---------------------------------------------------------------------------------


def due_now(match_id: int) -> None:
    """The wait is over (instead of waiting for it)."""
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match_id).update(bots_fill_at=past, due_at=past)


def test_quick_match_seats_people_together_then_bots_take_the_rest(player):
    make_table("quick", options={"rounds": 1}, bot_levels=["hard", "random", "normal"],
               bots_after=30)
    status, view = player.post("/tables/quick/play/")
    assert status == 201 and view["status"] == "waiting" and view["you"] == 0
    assert [s["open"] for s in view["seats"]] == [False, True, True, True]
    assert view["bots_fill_at"] is not None
    assert player.post("/tables/quick/play/")[1]["id"] == view["id"]  # pressed twice: same seat
    friend = new_player()
    status, joined = friend.post("/tables/quick/play/")
    assert status == 200 and joined["id"] == view["id"] and joined["you"] == 1
    match = Match.objects.get(pk=view["id"])
    assert match.table.slug == "quick" and match.options_hash == options_hash(match.options)
    due_now(view["id"])
    later = new_player()
    status, other = later.post("/tables/quick/play/")  # the due match is the bots' already
    assert status == 201 and other["id"] != view["id"]
    status, started = player.get(f"/matches/{view['id']}/")  # the first read seats the bots
    assert started["status"] == "active" and started["bots_fill_at"] is None
    assert [(s["kind"], s["level"]) for s in started["seats"]] == [
        ("human", None), ("human", None), ("bot", "random"), ("bot", "normal")]
    joined_event = Event.objects.get(match_id=view["id"], data__type="bots_joined")
    assert joined_event.data["seats"] == [2, 3]
    assert player.get(f"/matches/{view['id']}/")[1]["version"] == started["version"]


def test_a_table_without_a_wait_starts_against_bots_at_once(player):
    make_table("now", options={"rounds": 1}, bots_after=0, bot_levels=["random"])
    status, view = player.post("/tables/now/play/")
    assert status == 201 and view["status"] == "active"
    assert [s["kind"] for s in view["seats"]] == ["human", "bot", "bot", "bot"]
    assert new_player().post("/tables/now/play/")[1]["id"] != view["id"]


def test_quick_match_needs_a_token_and_an_active_table(player):
    make_table("retired", active=False)
    assert error(player.post("/tables/retired/play/"))["code"] == "not_found"
    assert error(player.post("/tables/nowhere/play/"))["code"] == "not_found"
    anonymous = Client(client_sender(APIClient()))
    assert error(anonymous.post("/tables/retired/play/"))["code"] == "not_authenticated"


def test_acting_on_a_due_match_seats_the_bots_and_answers_stale_version(player):
    make_table("quick")
    view = player.post("/tables/quick/play/")[1]
    body = {"expected_version": view["version"], "action": {"type": "cut", "position": None}}
    assert error(player.post(f"/matches/{view['id']}/act/", body))["code"] == "match_not_started"
    due_now(view["id"])
    refusal = error(player.post(f"/matches/{view['id']}/act/", body))
    assert refusal["code"] == "stale_version"
    assert refusal["details"]["current"] > view["version"]
    assert Match.objects.get(pk=view["id"]).status == "active"


def test_joining_a_due_match_by_its_code_is_refused_and_changes_nothing(player):
    make_table("quick")
    view = player.post("/tables/quick/play/")[1]
    due_now(view["id"])
    before = Match.objects.get(pk=view["id"]).version
    assert error(new_player().post("/matches/join/", {"code": view["invite_code"]}))["code"] \
        == "match_full"
    match = Match.objects.get(pk=view["id"])
    assert match.status == "waiting" and match.version == before


def test_filling_is_idempotent_and_waits_for_its_time(player):
    make_table("quick", bot_levels=["random"])
    view = player.post("/tables/quick/play/")[1]
    assert services.match_fill_due(match_id=view["id"]) is False  # not due yet
    due_now(view["id"])
    assert services.match_fill_due(match_id=view["id"]) is True
    assert services.match_fill_due(match_id=view["id"]) is False
    assert services.match_fill_due(match_id=999999) is False
    assert Seat.objects.filter(match_id=view["id"], kind="bot").count() == 3
    assert Match.objects.get(pk=view["id"]).bot_seats == [1, 2, 3]


def test_a_quick_match_is_due_when_its_bots_are_and_the_sweep_seats_them(player):
    make_table("quick", bots_after=45)
    view = player.post("/tables/quick/play/")[1]
    match = Match.objects.get(pk=view["id"])
    assert match.due_at == match.bots_fill_at
    assert match.created_at < match.bots_fill_at <= match.created_at + timedelta(seconds=45)
    new_player().post("/tables/quick/play/")
    assert Match.objects.get(pk=view["id"]).due_at == match.bots_fill_at
    assert recover() == 0  # not due yet
    Match.objects.filter(pk=match.pk).update(bots_fill_at=timezone.now(), due_at=timezone.now())
    assert recover() == 1
    match.refresh_from_db()
    assert match.status == "active" and match.due_at != match.bots_fill_at
