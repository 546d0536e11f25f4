"""The snapshot keeps a request's cost independent of the match's length: the same number of
queries for an act and a view at move ~5 and at move ~100 of one long match."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.matchplay import Client, choose, client_sender, create, sign_in

# A person's act: the match (with its round, its seats, and the token with its user), the
# transaction's start, moves, events, the match update, the transaction's end; PostgreSQL writes
# the moves, events and update in one statement. The view is built from what the write path
# holds. A view: the match (with its round, its seats, its last events and the token with its
# user). Round ends add the locked match, the round, the ledger and the seats on top.
MAX_ACT_QUERIES = 6
MAX_VIEW_QUERIES = 1


def people(n: int) -> list[Client]:
    clients = []
    for _ in range(n):
        client = Client(client_sender(APIClient()))
        sign_in(client)
        clients.append(client)
    return clients


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ruleset", "options", "seats"),
    [("gandengyan", {"starting_score": 100000}, 4), ("510k", {"players": 2, "rounds": 100}, 2)],
)
def test_act_and_view_cost_the_same_early_and_late(ruleset, options, seats,
                                                   django_assert_max_num_queries):
    clients = people(seats)
    view = create(clients[0], ruleset, options, [{"type": "human"}] * seats)
    for client in clients[1:]:
        status, _ = client.post("/matches/join/", {"code": view["invite_code"]})
        assert status == 200
    rng = random.Random(ruleset)
    costs = {}
    match_id = view["id"]
    view = clients[0].get(f"/matches/{match_id}/")[1]
    for move in range(1, 111):
        mover = clients[view["to_act"]]
        view = mover.get(f"/matches/{match_id}/")[1]
        with CaptureQueriesContext(connection) as act_queries:
            status, after = mover.post(f"/matches/{match_id}/act/",
                                       {"expected_version": view["version"],
                                        "action": choose(view, rng)})
        assert status == 200, after
        same_round = after["round"]["number"] == view["round"]["number"] and not any(
            e["type"] == "round_settled" for e in after["events"])
        if same_round and (5 <= move <= 10 or 100 <= move):
            with CaptureQueriesContext(connection) as view_queries:
                mover.get(f"/matches/{match_id}/")
            costs.setdefault("early" if move <= 10 else "late",
                             (len(act_queries), len(view_queries)))
        view = after
    assert set(costs) == {"early", "late"}
    assert costs["early"] == costs["late"]
    act, read = costs["late"]
    assert act <= MAX_ACT_QUERIES and read <= MAX_VIEW_QUERIES, costs
    with django_assert_max_num_queries(MAX_VIEW_QUERIES):
        clients[0].get(f"/matches/{match_id}/")
