"""Two of everything (issue 27): two web servers, two Celery workers and two beats on one
PostgreSQL and one Redis (tests/integration/stack.py), and nginx with the deployment's own site
(deploy/nginx.conf) in front of both web servers. Matches against bots play to their end with
the person's acts sent to one web server while their stream is served by the other (or both
through nginx) and the bots' turns taken by either worker: every event arrives on the stream once
and in order, no turn is lost or played twice (verify_matches), and one scrape of /metrics adds
up the work of every process of the machine."""

import asyncio
import random
import re
import shutil

import pytest

from tests.integration.stack import Stack, free_port
from tests.matchplay import Client, choose, create, http_sender, sign_in
from tests.matchplay import bots as bot_seats
from tests.sse import EventStream

WAIT = 20  # seconds for any one message: bots play in milliseconds when nothing is wrong
TOKEN = "scale-out-metrics-token"
MATCHES = 2


@pytest.fixture
def stack():
    stack = Stack(METRICS_TOKEN=TOKEN)
    metrics = stack.home / "metrics"
    metrics.mkdir()
    stack.env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics)
    try:
        stack.prepare()
        stack.second_port = stack.start_web("web2", free_port())
        stack.start_web("web")
        for name in ("worker", "worker2"):
            stack.start_worker(name=name)
        for name in ("beat", "beat2"):
            stack.start_beat(name)
        yield stack
    finally:
        print(stack.logs())  # shown when the test failed
        stack.down()


async def play_out(stream_port: int, act_url: str, person: Client, rng) -> tuple[int, int]:
    """A match of the person and three bots, created and played through `act_url`, followed
    on a stream of the web server at `stream_port` to its end; (its id, the person's acts)."""
    acting = Client(http_sender(act_url))
    acting.headers = dict(person.headers)
    view = await asyncio.to_thread(create, acting, "510k", {"rounds": 1}, bot_seats(3))
    stream = await EventStream.open(stream_port, f"/api/v1/matches/{view['id']}/stream/",
                                    {"Authorization": person.headers["Authorization"]})
    assert stream.status == 200 and stream.headers["content-type"] == "text/event-stream"
    opening = await stream.next(WAIT)
    assert opening.event == "view"
    latest, events, acts = opening.data, [], 0
    while True:
        if latest["your_turn"]:
            status, after = await asyncio.to_thread(
                acting.post, f"/matches/{view['id']}/act/",
                {"expected_version": latest["version"], "action": choose(latest, rng)})
            assert status == 200, after
            acts += 1
        message = await stream.next(WAIT)
        if message is None:  # the match is over: its stream ends
            break
        assert message.event == "update", message
        events += message.data["events"]
        status, latest = await asyncio.to_thread(acting.get, f"/matches/{view['id']}/")
        assert status == 200, latest
    await stream.close()
    assert latest["status"] == "finished"
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(opening.id + 1, latest["last_event_seq"] + 1))
    return view["id"], acts


def scrape(port: int) -> str:
    import urllib.request

    request = urllib.request.Request(f"http://127.0.0.1:{port}/metrics",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read().decode()


def total(page: str, name: str, labels: str = "") -> float:
    pattern = rf"^{re.escape(name)}(\{{[^}}]*{re.escape(labels)}[^}}]*\}})? (\S+)$"
    return sum(float(m.group(2)) for m in re.finditer(pattern, page, re.MULTILINE))


async def test_streams_on_one_web_server_acts_on_the_other_bots_on_either_worker(stack):
    person = Client(http_sender(stack.url))
    await asyncio.to_thread(sign_in, person)
    other = f"http://127.0.0.1:{stack.second_port}"
    played = await asyncio.gather(*(play_out(stack.web_port, other, person, random.Random(seed))
                                    for seed in range(MATCHES)))
    checked = await asyncio.to_thread(stack.manage, "verify_matches",
                                      *(str(match_id) for match_id, _ in played))
    assert checked.returncode == 0, checked.stdout + checked.stderr

    page = await asyncio.to_thread(scrape, stack.web_port)
    acts = sum(n for _, n in played)
    assert total(page, "cardtable_acts_committed_total", 'actor="human"') >= acts
    assert total(page, "cardtable_acts_committed_total", 'actor="bot"') > 0  # the workers'
    assert total(page, "cardtable_bot_decision_seconds_count", 'level="random"') > 0
    assert total(page, "cardtable_http_requests_total",
                 'view="api/v1/matches/<id:match_id>/act/"') >= acts  # web2's answers
    assert total(page, "cardtable_stream_messages_total", 'kind="match"') > 0
    assert total(page, "cardtable_streams_open") == 0  # every stream has ended


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
async def test_through_nginx_streams_come_unbuffered_and_every_web_server_serves(stack):
    balancer = stack.start_balancer([stack.web_port, stack.second_port])
    person = Client(http_sender(f"http://127.0.0.1:{balancer}"))
    await asyncio.to_thread(sign_in, person)
    # Each update must come through at once (WAIT), as a browser needs it: nginx must not
    # buffer the stream (deploy/nginx.conf turns buffering off there, and the service's
    # `X-Accel-Buffering: no` asks it the same).
    match_id, acts = await play_out(balancer, f"http://127.0.0.1:{balancer}", person,
                                    random.Random(9))
    assert acts > 0
    stack.kill("web2")  # one web server gone: nginx sends everything to the other
    for _ in range(4):
        status, view = await asyncio.to_thread(person.get, f"/matches/{match_id}/")
        assert status == 200 and view["status"] == "finished"
