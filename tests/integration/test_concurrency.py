"""50 clients act at the same turn at once on PostgreSQL: the row lock and the version check let
exactly one through; the others get 409, nobody gets a 500, and the log stays consistent. 50
refreshes of one token at once give one successor."""

import pytest

from games.models import Event, Match, Move
from tests.matchplay import Client, at_once, bots, create, http_sender, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = 50


def posted_at_once(live_server, headers: dict, path: str, body: dict) -> list:
    """CLIENTS clients with the same headers post the same body at once; their answers."""
    def post(_):
        client = Client(http_sender(live_server.url))
        client.headers = dict(headers)
        return client.post(path, body)

    return at_once(CLIENTS, post)


def test_fifty_concurrent_acts_at_the_same_turn(live_server):
    owner = Client(http_sender(live_server.url))
    sign_in(owner)
    view = create(owner, "510k", {"rounds": 1}, bots(3))
    assert view["your_turn"]  # seat 0 cuts first
    body = {"expected_version": view["version"], "action": {"type": "cut", "position": None}}
    results = posted_at_once(live_server, owner.headers, f"/matches/{view['id']}/act/", body)
    statuses = sorted(status for status, _ in results)
    assert statuses.count(200) == 1 and statuses.count(409) == CLIENTS - 1, statuses
    assert all(data["error"]["code"] == "stale_version" for status, data in results
               if status == 409)

    match = Match.objects.get(pk=view["id"])
    cuts = Move.objects.filter(match=match, action__type="cut")
    assert cuts.count() == 1 and cuts.get().version == view["version"] + 1
    for number in match.rounds.values_list("number", flat=True):
        seqs = list(Move.objects.filter(match=match, round__number=number)
                    .order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))
    events = list(Event.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert events == list(range(1, len(events) + 1))


def test_fifty_refreshes_of_one_token_at_once_give_one_successor(live_server):
    person = Client(http_sender(live_server.url))
    sign_in(person)
    results = posted_at_once(live_server, person.headers, "/auth/refresh/", {})
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [401] * (CLIENTS - 1), statuses
    successor = next(data["token"] for status, data in results if status == 200)
    assert person.get("/auth/me/")[0] == 401
    person.headers["Authorization"] = f"Token {successor}"
    assert person.get("/auth/me/")[0] == 200
