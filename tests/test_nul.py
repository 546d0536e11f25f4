"""A NUL (U+0000) in any text a request sends is a 400 `invalid_input` naming where it is, and
changes nothing: every string field of every body, object keys, query parameters, the
Idempotency-Key header, the admin's filters and its abort form. PostgreSQL cannot store a NUL (it
answered 500 where SQLite stored it or answered another 400): the unit suite runs these on
SQLite, tests/integration/test_nul.py on PostgreSQL."""

import json

import pytest
from django.test import Client as DjangoClient
from rest_framework.test import APIClient

from accounts.models import AuthToken, User
from games.engine.registry import get_ruleset
from games.models import Event, Match, Move, Table
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

NUL = "\x00"
API = "/api/v1"
SETTLE_FACTS = {"options": {"players": 4, "decks": 1}, "winner": 0, "remaining": [0, 2, 5, 1],
                "played_any": [True, True, True, False],
                "forfeited": [False, False, False, False], "bombs": [3, 4]}


@pytest.fixture
def table() -> Table:
    return Table.objects.create(name="House", slug="house", ruleset="gandengyan",
                                options=get_ruleset("gandengyan").parse_options({}))


@pytest.fixture
def matches(auth_client, table) -> dict:
    """Two matches of the caller's that nothing moves on its own (no bots): one in play with a
    second person, one waiting for a second person."""
    def create(client, body):
        response = client.post(f"{API}/matches/", body, format="json")
        assert response.status_code == 201, response.content
        return response.json()

    two = {"ruleset": "510k", "options": {"players": 2}, "seats": [{"type": "human"}] * 2}
    active, waiting = create(auth_client, two), create(auth_client, two)
    other = APIClient()
    token = other.post(f"{API}/auth/guest/").json()["token"]
    other.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    joined = other.post(f"{API}/matches/join/", {"code": active["invite_code"]}, format="json")
    assert joined.json()["status"] == "active"
    return {"active": auth_client.get(f"{API}/matches/{active['id']}/").json(),
            "waiting": waiting}


def everything() -> tuple:
    """What a refused request must leave as it was."""
    return (list(User.objects.order_by("pk").values_list("username", "display_name", "password",
                                                          "is_guest")),
            AuthToken.objects.count(), Match.objects.count(), Move.objects.count(),
            Event.objects.count(), list(Match.objects.order_by("pk").values_list("version")))


def bodies(matches: dict) -> list[tuple[str, object, str | None]]:
    """(path, body, the field the refusal names): a NUL in each string field of every body."""
    active, waiting = matches["active"], matches["waiting"]
    act = f"/matches/{active['id']}/act/"
    version = active["version"]
    bot = {"type": "bot", "level": "random"}
    return [
        ("/matches/", {"table": f"house{NUL}"}, "table"),
        ("/matches/", {"ruleset": f"gandengyan{NUL}"}, "ruleset"),
        ("/matches/", {"ruleset": "510k", "options": {f"dry{NUL}": "full"}}, f"options.dry{NUL}"),
        ("/matches/", {"ruleset": "510k", "options": {"dry": f"full{NUL}"}}, "options.dry"),
        ("/matches/", {"ruleset": "gandengyan", "seats": [
            {"type": "human"}, {"type": "bot", "level": f"hard{NUL}"}, bot, bot]},
         "seats[1].level"),
        ("/matches/", {"ruleset": "gandengyan", "seats": [
            {"type": f"human{NUL}"}, bot, bot, bot]}, "seats[0].type"),
        ("/matches/", f"gandengyan{NUL}", None),
        ("/matches/join/", {"code": f"{waiting['invite_code']}{NUL}"}, "code"),
        (f"/matches/{waiting['id']}/join/", {"code": f"{NUL}{waiting['invite_code']}"}, "code"),
        (act, {"expected_version": version, "action": {"type": f"pass{NUL}"}}, "action.type"),
        (act, {"expected_version": version, "action": {
            "type": "play", "cards": [0], "reading": {"type": f"single{NUL}", "rank": "3",
                                                      "length": 1}}}, "action.reading.type"),
        (act, {"expected_version": version, "action": {"type": "pass"}, NUL: 1}, NUL),
        (f"/matches/{active['id']}/autoplay/", {f"on{NUL}": True}, f"on{NUL}"),
        ("/auth/register/", {"username": f"grace{NUL}", "password": PASSWORD}, "username"),
        ("/auth/register/", {"username": "grace", "password": f"{PASSWORD}{NUL}"}, "password"),
        ("/auth/login/", {"username": f"ada{NUL}", "password": PASSWORD}, "username"),
        ("/auth/upgrade/", {"username": f"grace{NUL}", "password": PASSWORD}, "username"),
        ("/auth/logout/", {"everywhere": True, f"x{NUL}": 1}, f"x{NUL}"),
        ("/auth/guest/", {"display_name": f"Ada{NUL}"}, "display_name"),
        ("/rules/gandengyan/evaluate/", {"cards": ["3S", f"4S{NUL}"]}, "cards[1]"),
        ("/rules/gandengyan/settle/", {**SETTLE_FACTS, f"bombs{NUL}": []}, f"bombs{NUL}"),
    ]


def queries(matches: dict) -> list[tuple[str, str]]:
    """(path with a query string, the parameter the refusal names)."""
    active = matches["active"]["id"]
    return [
        ("/matches/?status=act%00ive", "status"),
        ("/matches/?limit=1%00", "limit"),
        ("/matches/?before=%00", "before"),
        (f"/matches/{active}/events/?since=0%00", "since"),
        (f"/matches/{active}/stream/?ticket=%00", "ticket"),
        (f"/matches/{active}/stream/?last_event_id=1%00", "last_event_id"),
        ("/tables/?q%00=1", f"q{NUL}"),
    ]


def assert_refused(response, field: str | None) -> None:
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid_input" and error["details"] == {"field": field}, error
    assert "NUL" in error["message"]


def test_a_nul_in_any_string_of_any_body_is_refused(auth_client, matches):
    before = everything()
    for path, body, field in bodies(matches):
        response = auth_client.post(API + path, json.dumps(body), content_type="application/json")
        assert_refused(response, field)
    assert everything() == before


def test_a_nul_in_a_display_name_is_refused(auth_client):
    before = everything()
    response = auth_client.patch(f"{API}/auth/me/", json.dumps({"display_name": f"Ada{NUL}"}),
                                 content_type="application/json")
    assert_refused(response, "display_name")
    assert everything() == before


def test_a_nul_in_a_query_parameter_is_refused(auth_client, matches):
    before = everything()
    for path, name in queries(matches):
        assert_refused(auth_client.get(API + path), name)
    assert everything() == before


def test_a_nul_in_the_idempotency_key_is_refused(auth_client, matches):
    active = matches["active"]
    before = everything()
    response = auth_client.post(
        f"{API}/matches/{active['id']}/act/", {"expected_version": active["version"],
                                               "action": {"type": "pass"}},
        format="json", HTTP_IDEMPOTENCY_KEY=f"key{NUL}")
    assert response.status_code == 400
    assert response.json()["error"]["details"] == {"field": "Idempotency-Key"}
    assert everything() == before


def test_the_same_requests_without_the_nul_are_taken(auth_client, matches):
    """The refusals above are the NUL's, not the requests': without it the first bodies go
    through (a match made at the table, another by ruleset)."""
    for body in ({"table": "house"}, {"ruleset": "510k"}):
        response = auth_client.post(f"{API}/matches/", body, format="json")
        assert response.status_code == 201, response.content
    assert auth_client.get(f"{API}/matches/?status=active&limit=1").status_code == 200


@pytest.fixture
def staff(django_user_model) -> DjangoClient:
    client = DjangoClient()
    client.force_login(django_user_model.objects.create_superuser("staff", password=PASSWORD))
    return client


def test_the_admin_refuses_a_nul_in_its_filters_and_its_abort_reason(staff, matches):
    before = everything()
    for query in ("status__exact=%00", "ruleset__exact=gandengyan%00", "q=%00",
                  "options_hash=%00"):
        response = staff.get(f"/admin/games/match/?{query}")
        assert response.status_code == 400, query
    assert staff.get("/admin/games/event/?match__ruleset__exact=%00").status_code == 400
    match_id = matches["active"]["id"]
    response = staff.post(f"/admin/games/match/{match_id}/abort/", {"reason": f"stuck{NUL}"})
    assert response.status_code == 200 and response.context["form"].errors["reason"]
    assert everything() == before
    assert Match.objects.get(pk=match_id).status == Match.Status.ACTIVE


def test_an_escaped_percent_sign_is_no_nul(api_client):
    # The text "%00": the NUL check, which comes first, lets it through to the next check.
    answer = api_client.get(f"{API}/tables/?q=%2500")
    assert answer.json()["error"]["code"] == "unknown_query_parameter"
