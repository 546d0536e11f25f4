"""Someone who does not play a match gets the same answer for it as for a match that does not
exist, on every match endpoint: nothing tells them that it exists. Staff read any match (and
are told 403 if they act in one where they hold no seat). The unit suite runs these on SQLite,
tests/integration/test_strangers.py on PostgreSQL."""

import pytest
from rest_framework.test import APIClient

from games.models import Match
from tests.matchplay import Client, client_sender, create, new_player, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def requests(version: int) -> list[tuple[str, str, dict | None, dict]]:
    """(method, path under the match, body, headers): every endpoint that names a match."""
    act = {"expected_version": version, "action": {"type": "pass"}}
    return [
        ("GET", "", None, {}),
        ("GET", "", None, {"HTTP_IF_NONE_MATCH": f'"{version}"'}),
        ("POST", "act/", act, {}),
        ("POST", "act/", {**act, "seat": 0}, {}),
        ("POST", "act/", act, {"HTTP_IDEMPOTENCY_KEY": "a-key"}),
        ("GET", "events/?since=0", None, {}),
        ("GET", "rounds/", None, {}),
        ("GET", "rounds/1/", None, {}),
        ("POST", "join/", {"code": "K7QX2MZP4D"}, {}),
        ("POST", "leave/", {}, {}),
        ("POST", "autoplay/", {"on": True}, {}),
        ("POST", "rematch/", {}, {}),
        ("POST", "rematch/decline/", {}, {}),
        ("GET", "stream/", None, {}),
    ]


def answer(client: APIClient, method: str, path: str, body, headers) -> tuple:
    if method == "GET":
        response = client.get(path, **headers)
    else:
        response = client.post(path, body, format="json", **headers)
    error = response.json()["error"]
    return response.status_code, error["code"], error["message"], error["details"]


@pytest.fixture
def played() -> dict:
    """A match two people play."""
    first, second = new_player(), new_player()
    view = create(first, "510k", {"players": 2, "rounds": 1}, [{"type": "human"}] * 2)
    second.post("/matches/join/", {"code": view["invite_code"]})
    return first.get(f"/matches/{view['id']}/")[1]


def token_client(person: Client) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=person.headers["Authorization"])
    return client


def test_a_stranger_cannot_tell_someone_elses_match_from_no_match(played):
    stranger = token_client(new_player())
    before = Match.objects.values_list("version", "status").get(pk=played["id"])
    missing = played["id"] + 1000
    for method, path, body, headers in requests(played["version"]):
        theirs = answer(stranger, method, f"/api/v1/matches/{played['id']}/{path}", body,
                        headers)
        nothing = answer(stranger, method, f"/api/v1/matches/{missing}/{path}", body, headers)
        assert theirs == nothing, (method, path, theirs, nothing)
        assert theirs[0] in (400, 404), (method, path, theirs)
    assert Match.objects.values_list("version", "status").get(pk=played["id"]) == before


def test_staff_read_any_match_and_are_told_they_hold_no_seat_when_they_act(
        played, django_user_model):
    person = Client(client_sender(APIClient()))
    data = sign_in(person)
    django_user_model.objects.filter(pk=data["user"]["id"]).update(is_staff=True)
    assert person.get(f"/matches/{played['id']}/")[0] == 200
    status, refused = person.post(f"/matches/{played['id']}/act/", {
        "expected_version": played["version"], "action": {"type": "pass"}})
    assert status == 403 and refused["error"]["code"] == "forbidden"
