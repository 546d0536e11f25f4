"""The metrics operators read (games.metrics): counted where the work is done, served at /metrics
to a scraper holding the token, and JSON log lines with the request id."""

import json
import logging
import re

import pytest
from django.test import Client as DjangoClient
from prometheus_client import REGISTRY, Counter, Gauge, Histogram

import bots.tasks
from config.jsonlog import JsonFormatter
from games.api import metrics as web_metrics
from games.api.middleware import RequestIdLogFilter
from games.api.streams import counted
from tests.matchplay import bots as bot_seats
from tests.matchplay import create, new_player

pytestmark = pytest.mark.django_db(transaction=True)
TOKEN = "a-metrics-token-for-tests"


def value(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def scraper(settings) -> DjangoClient:
    settings.METRICS_TOKEN = TOKEN
    return DjangoClient(HTTP_AUTHORIZATION=f"Bearer {TOKEN}")


def test_without_a_token_set_the_endpoint_is_not_there(settings):
    settings.METRICS_TOKEN = ""
    response = DjangoClient(HTTP_AUTHORIZATION="Bearer ").get("/metrics")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("header", [None, "Bearer wrong", f"Token {TOKEN}"])
def test_a_scraper_without_the_token_is_refused(settings, header):
    settings.METRICS_TOKEN = TOKEN
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    response = DjangoClient(**extra).get("/metrics")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_answers_are_counted_and_timed_by_route_not_by_url(scraper):
    route = "api/v1/matches/<id:match_id>/"
    before = value("cardtable_http_requests_total", view=route, method="GET", status="401")
    timed = value("cardtable_http_request_seconds_count", view=route)
    for match_id in (1, 2):
        assert DjangoClient().get(f"/api/v1/matches/{match_id}/").status_code == 401
    assert value("cardtable_http_requests_total", view=route, method="GET",
                 status="401") == before + 2
    assert value("cardtable_http_request_seconds_count", view=route) == timed + 2
    unknown = value("cardtable_http_requests_total", view="unmatched", method="GET",
                    status="404")
    DjangoClient().get("/no-such-page/")
    assert value("cardtable_http_requests_total", view="unmatched", method="GET",
                 status="404") == unknown + 1
    page = scraper.get("/metrics")
    assert page.status_code == 200
    assert page["Content-Type"].startswith("text/plain")
    assert f'cardtable_http_requests_total{{method="GET",status="401",view="{route}"}}' \
        in page.content.decode()


def test_acts_bot_turns_and_conflicts_are_counted():
    player = new_player()
    acts = value("cardtable_acts_committed_total", actor="human")
    bot_acts = value("cardtable_acts_committed_total", actor="bot")
    decisions = value("cardtable_bot_decision_seconds_count", level="random")
    stale = value("cardtable_conflicts_total", code="stale_version")
    view = create(player, "510k", {"rounds": 1}, bot_seats(3))
    mine = 0
    while value("cardtable_acts_committed_total", actor="bot") == bot_acts:  # until bots answer
        before = view
        status, view = player.post(f"/matches/{view['id']}/act/",
                                   {"expected_version": view["version"],
                                    "action": view["legal_actions"][0]})
        assert status == 200, view
        mine += 1
        assert value("cardtable_acts_committed_total", actor="human") == acts + mine
    played = value("cardtable_acts_committed_total", actor="bot") - bot_acts
    assert value("cardtable_bot_decision_seconds_count", level="random") == decisions + played
    status, refused = player.post(f"/matches/{view['id']}/act/",
                                  {"expected_version": before["version"],
                                   "action": before["legal_actions"][0]})
    assert status == 409 and refused["error"]["code"] == "stale_version"
    assert value("cardtable_conflicts_total", code="stale_version") == stale + 1
    assert value("cardtable_acts_committed_total", actor="human") == acts + mine


def test_a_sweep_counts_its_runs_and_what_it_recovered():
    runs, recovered = value("cardtable_sweep_runs_total"), value("cardtable_sweep_recovered_total")
    assert bots.tasks.recover() == 0
    assert value("cardtable_sweep_runs_total") == runs + 1
    assert value("cardtable_sweep_recovered_total") == recovered


async def test_a_stream_is_open_while_it_runs_and_its_messages_are_counted():
    async def messages():
        yield b"one"
        yield b"two"

    open_before = value("cardtable_streams_open", kind="match")
    pushed = value("cardtable_stream_messages_total", kind="match")
    stream = counted("match", messages())
    assert await anext(stream) == b"one"
    assert value("cardtable_streams_open", kind="match") == open_before + 1
    assert [m async for m in stream] == [b"two"]
    assert value("cardtable_streams_open", kind="match") == open_before
    assert value("cardtable_stream_messages_total", kind="match") == pushed + 2


def test_the_pool_sampler_adds_what_the_pool_counted_since_the_last_sample():
    sampler = web_metrics.PoolSampler()
    waited, timeouts = value("cardtable_db_pool_wait_seconds_total"), \
        value("cardtable_db_pool_timeouts_total")
    sampler.sample({"requests_waiting": 3, "requests_wait_ms": 1500, "requests_errors": 2})
    sampler.sample({"requests_waiting": 1, "requests_wait_ms": 2000, "requests_errors": 2})
    assert value("cardtable_db_pool_waiting") == 1
    assert value("cardtable_db_pool_wait_seconds_total") == pytest.approx(waited + 2.0)
    assert value("cardtable_db_pool_timeouts_total") == timeouts + 2


def test_json_log_lines_carry_the_request_id_and_extras():
    record = logging.LogRecord("games.x", logging.WARNING, __file__, 1, "turn %s lost", (7,),
                               None)
    record.match = 7
    RequestIdLogFilter().filter(record)
    line = json.loads(JsonFormatter().format(record))
    assert line["level"] == "WARNING" and line["logger"] == "games.x"
    assert line["message"] == "turn 7 lost" and line["request_id"] == "-"
    assert line["match"] == 7


def test_the_grafana_dashboard_shows_every_metric_and_no_other():
    from pathlib import Path

    from games import metrics

    dashboard = json.loads((Path(__file__).resolve().parent.parent / "docs" /
                            "grafana-dashboard.json").read_text())
    names = {m._name for m in vars(metrics).values() if isinstance(m, Counter | Gauge | Histogram)}
    used = {re.sub(r"_(total|bucket|count|sum)$", "", name)
            for panel in dashboard["panels"] for target in panel["targets"]
            for name in re.findall(r"cardtable_\w+", target["expr"])}
    assert used == names
