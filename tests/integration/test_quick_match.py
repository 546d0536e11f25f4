"""A quick match on PostgreSQL and Redis: nobody else comes, and the worker seats the bots when
the table's wait is over (beat's recovery sweep, sent here as beat sends it; not a read), then
they play it out with the person."""

import random
import time

import pytest

from config.celery import app as celery_app
from games.engine.registry import get_ruleset
from games.models import Event, Match, Table
from tests.matchplay import Client, http_sender, play_through, poller, sign_in

pytestmark = pytest.mark.django_db(transaction=True)
DEADLINE_SECONDS = 60


def test_the_worker_seats_the_bots_when_the_wait_is_over(live_server):
    Table.objects.create(name="quick", slug="quick", ruleset="510k",
                         options=get_ruleset("510k").parse_options({"rounds": 1}),
                         bot_levels=["random"], bots_after=1)
    player = Client(http_sender(live_server.url))
    sign_in(player)
    status, view = player.post("/tables/quick/play/")
    assert status == 201 and view["status"] == "waiting"
    deadline = time.monotonic() + DEADLINE_SECONDS
    # The database, not the API: a read through the API would seat the bots itself.
    while Match.objects.get(pk=view["id"]).status == "waiting":
        assert time.monotonic() < deadline, "the bots did not sit down"
        celery_app.send_task("bots.tasks.recover_turns")
        time.sleep(0.5)
    assert Event.objects.filter(match_id=view["id"], data__type="bots_joined").exists()
    view = player.get(f"/matches/{view['id']}/")[1]
    view = play_through(player, view, random.Random(1), wait=poller(player))
    assert view["status"] == "finished"
