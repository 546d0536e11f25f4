"""The embedded mode (`make run`: SQLite, uvicorn, eager bots) under a race: ten
identical acts sent at once to a live server get exactly one 200 and nine 409 stale_version, and
only the winner's act is stored; ten refreshes of one token at once give one successor. Before
SQLite transactions began IMMEDIATE, about half such races answered 500 "database is locked".
These races run against a SQLite file, as users run it: the suite's in-memory database shares
one cache between threads, where a second writer fails at once ("table is locked") instead of
waiting its turn."""

import sqlite3
from pathlib import Path

import pytest

from tests.embedded import migrated, send, serve
from tests.matchplay import at_once, bots

RACERS = 10


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The embedded server on a fresh SQLite file, as `make run` starts it; yields (url, db)."""
    folder = tmp_path_factory.mktemp("embedded")
    process, port = serve(migrated(folder), folder / "server.log")
    try:
        yield f"http://127.0.0.1:{port}/api/v1", folder / "db.sqlite3"
    finally:
        process.terminate()
        process.wait(timeout=30)


def stored(db: Path, match_id: int) -> dict:
    with sqlite3.connect(db) as conn:
        def one(sql: str):
            return conn.execute(sql, [match_id]).fetchone()
        return {"match": one("SELECT version, last_event_seq, snapshot FROM games_match"
                             " WHERE id = ?"),
                "moves": one("SELECT count(*) FROM games_move WHERE match_id = ?"),
                "human_moves": one("SELECT count(*) FROM games_move WHERE match_id = ?"
                                   " AND actor = 'human'"),
                "events": one("SELECT count(*) FROM games_event WHERE match_id = ?")}


def test_ten_identical_acts_at_once_one_200_nine_409(server):
    url, db = server
    token = send(f"{url}/auth/guest/", "POST")[1]["token"]
    # No pace: the bots that lead reply within the request, so that the person is to act.
    status, view = send(f"{url}/matches/", "POST", {"ruleset": "gandengyan", "seats": bots(4),
                                                    "options": {"server_pace_ms": 0}}, token)
    assert status == 201 and view["your_turn"], view
    before = stored(db, view["id"])
    body = {"expected_version": view["version"], "action": view["legal_actions"][0]}
    answers = at_once(RACERS, lambda _: send(f"{url}/matches/{view['id']}/act/", "POST", body,
                                                token))
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] + [409] * (RACERS - 1), answers
    won = next(data for status, data in answers if status == 200)
    assert {data["error"]["code"] for status, data in answers if status == 409} == {
        "stale_version"}
    after = stored(db, view["id"])
    assert after["human_moves"][0] == before["human_moves"][0] + 1
    assert after["match"][0] == won["version"] == send(f"{url}/matches/{view['id']}/",
                                                       token=token)[1]["version"]
    assert after["events"][0] == before["events"][0] + len(won["events"])


def test_ten_refreshes_of_one_token_at_once_give_one_successor(server):
    url, _ = server
    token = send(f"{url}/auth/guest/", "POST")[1]["token"]
    answers = at_once(RACERS, lambda _: send(f"{url}/auth/refresh/", "POST", {}, token))
    assert sorted(status for status, _ in answers) == [200] + [401] * (RACERS - 1), answers
    successor = next(data["token"] for status, data in answers if status == 200)
    assert send(f"{url}/auth/me/", token=successor)[0] == 200
    assert send(f"{url}/auth/me/", token=token)[0] == 401
