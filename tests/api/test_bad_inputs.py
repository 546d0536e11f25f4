"""Hostile inputs end as a 400 in the API's error shape, never a 500, and change nothing: bodies
nested a thousand deep, numbers of thousands of digits, query parameters given twice."""

import json

import pytest

from games.api.parsers import MAX_DEPTH
from games.models import Event, Match
from tests.matchplay import bots

pytestmark = pytest.mark.django_db

SETTLE = "/api/v1/rules/gandengyan/settle/"
GANDENGYAN_FACTS = {"options": {"players": 4, "decks": 1}, "winner": 0,
                    "remaining": [0, 2, 5, 1], "played_any": [True, True, True, False],
                    "forfeited": [False, False, False, False], "bombs": [3, 4]}

# Every endpoint that reads a JSON body, with whether it needs a token.
JSON_ENDPOINTS = [
    ("/api/v1/auth/register/", False),
    ("/api/v1/auth/login/", False),
    ("/api/v1/rules/gandengyan/evaluate/", False),
    (SETTLE, False),
    ("/api/v1/rules/510k/settle/", False),
    ("/api/v1/matches/", True),
    ("/api/v1/matches/join/", True),
    ("/api/v1/matches/{id}/join/", True),
    ("/api/v1/matches/{id}/act/", True),
    ("/api/v1/auth/upgrade/", True),
    ("/api/v1/auth/logout/", True),
]


@pytest.fixture
def match(auth_client) -> dict:
    return auth_client.post("/api/v1/matches/", {"ruleset": "gandengyan", "seats": bots(4)},
                            format="json").json()


def nested(levels: int) -> str:
    return '{"a": ' * levels + "1" + "}" * levels


@pytest.mark.parametrize(("url", "authenticated"), JSON_ENDPOINTS)
@pytest.mark.parametrize("body", ["[" * 1000 + "]" * 1000, nested(MAX_DEPTH + 1), nested(900)])
def test_deeply_nested_json_is_a_400_on_every_json_endpoint(api_client, auth_client, match, url,
                                                            authenticated, body):
    client = auth_client if authenticated else api_client
    before = (Match.objects.count(), Event.objects.count())
    response = client.post(url.format(id=match["id"]), body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "malformed_json"
    assert (Match.objects.count(), Event.objects.count()) == before


def test_nesting_up_to_the_bound_is_parsed(api_client):
    body = {**GANDENGYAN_FACTS, "options": json.loads(nested(MAX_DEPTH - 1))}
    response = api_client.post(SETTLE, body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_option"


@pytest.mark.parametrize("digits", [19, 4300, 4301, 100_000 // 2])
@pytest.mark.parametrize("field", ["winner", "remaining", "bombs", "options"])
def test_huge_numbers_in_settlement_facts_are_a_400(api_client, digits, field):
    huge = "9" * digits
    body = json.dumps(GANDENGYAN_FACTS)
    value = {"winner": huge, "remaining": f"[{huge}, 2, 5, 1]", "bombs": f"[{huge}]",
             "options": f'{{"players": 4, "decks": {huge}}}'}[field]
    facts = json.loads(body)
    facts[field] = "@"
    text = json.dumps(facts).replace('"@"', value)
    response = api_client.post(SETTLE, text, content_type="application/json")
    assert response.status_code in (400, 413), response.content
    assert response.json()["error"]["code"] in (
        "invalid_settlement", "invalid_option", "malformed_json", "body_too_large")


@pytest.mark.parametrize("value", ["1e400", "-1e400", "1.5", "true", '"1"'])
def test_non_whole_numbers_in_settlement_facts_are_a_400(api_client, value):
    text = json.dumps({**GANDENGYAN_FACTS, "winner": "@"}).replace('"@"', value)
    response = api_client.post(SETTLE, text, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["details"]["field"] == "winner"


@pytest.mark.parametrize(
    ("path", "query", "name"),
    [
        ("/api/v1/matches/", "status=active&status=finished", "status"),
        ("/api/v1/matches/", "limit=5&limit=6", "limit"),
        ("/api/v1/matches/", "before=5&before=6", "before"),
        ("/api/v1/matches/{id}/events/", "since=1&since=2", "since"),
        ("/api/v1/matches/{id}/events/", "limit=1&limit=1", "limit"),
        ("/api/v1/matches/", "status=over", "status"),
        ("/api/v1/matches/", "limit=" + "9" * 5000, "limit"),
        ("/api/v1/matches/", "before=-1", "before"),
        ("/api/v1/matches/{id}/events/", "since=x", "since"),
        ("/api/v1/matches/{id}/events/", "limit=0", "limit"),
        ("/api/v1/matches/{id}/stream/", "last_event_id=+5", "last_event_id"),
        ("/api/v1/matches/{id}/stream/", "last_event_id=1&last_event_id=2", "last_event_id"),
    ],
)
def test_a_query_parameter_given_twice_or_out_of_bounds_is_refused(auth_client, match, path,
                                                                   query, name):
    response = auth_client.get(f"{path.format(id=match['id'])}?{query}")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_input"
    assert error["details"]["field"] == name


@pytest.mark.parametrize("value", ["٣", " 5", "1_0", "-1", "05", str(2**63), str(2**63 - 1),
                                   str(2**64)])
def test_a_streams_last_event_id_header_is_a_whole_number_as_query_numbers_are(auth_client,
                                                                               match, value):
    response = auth_client.get(f"/api/v1/matches/{match['id']}/stream/",
                               HTTP_LAST_EVENT_ID=value)
    assert response.status_code == 400
    assert response.json()["error"]["details"] == {"field": "Last-Event-ID"}
