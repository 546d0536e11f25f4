"""50 clients act at the same turn at once on PostgreSQL: the row lock and the version check let
exactly one through; the others get 409, nobody gets a 500, and the log stays consistent."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from games.models import Event, Match, Move
from tests.matchplay import Client, bots, create, http_sender, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = 50


def test_fifty_concurrent_acts_at_the_same_turn(live_server):
    owner = Client(http_sender(live_server.url))
    sign_in(owner)
    view = create(owner, "510k", {"rounds": 1}, bots(3))
    assert view["your_turn"]  # seat 0 cuts first
    body = {"expected_version": view["version"], "action": {"type": "cut", "position": None}}
    path = f"/matches/{view['id']}/act/"

    def act(_):
        client = Client(http_sender(live_server.url))
        client.headers = dict(owner.headers)
        return client.post(path, body)

    with ThreadPoolExecutor(max_workers=CLIENTS) as pool:
        results = list(pool.map(act, range(CLIENTS)))
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
