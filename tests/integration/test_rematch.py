"""Both people of a finished match press "Play again" at once, many times each, on PostgreSQL:
one rematch is opened (one 201), every answer names it, and both sit in it, which then starts."""

import random

import pytest

from games.models import Match
from tests.matchplay import Client, at_once, create, http_sender, played_out, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

PRESSES = 8  # each


def test_two_people_pressing_play_again_at_once_get_one_rematch(live_server):
    people = [Client(http_sender(live_server.url)) for _ in range(2)]
    for person in people:
        sign_in(person)
    view = create(people[0], "highcard", {"players": 2, "rounds": 1}, [{"type": "human"}] * 2)
    people[1].post("/matches/join/", {"code": view["invite_code"]})
    played_out(people, view["id"], random.Random(7))

    answers = at_once(2 * PRESSES,
                      lambda i: people[i % 2].post(f"/matches/{view['id']}/rematch/"))
    assert sorted(status for status, _ in answers) == [200] * (2 * PRESSES - 1) + [201], answers
    rematch = Match.objects.get(rematch_of=view["id"])
    assert {data["id"] for _, data in answers} == {rematch.pk}
    assert rematch.status == Match.Status.ACTIVE
    assert sorted(rematch.seats.values_list("user_id", flat=True)) == sorted(
        Match.objects.get(pk=view["id"]).seats.values_list("user_id", flat=True))
