"""`make run` for real: a fresh install has house tables to play at, and one Ctrl-C stops the
server while live streams are open: each stream's last message says the server is restarting
(with a `retry` hint), and the process exits at once instead of waiting on its streams."""

import asyncio
import signal

import pytest

from tests.embedded import migrated, send, serve
from tests.matchplay import bots
from tests.sse import EventStream

# Uvicorn waited for open streams forever; the server now ends them itself: this bounds a hang,
# it measures no speed.
STOPPED_WITHIN = 5


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple:
    folder = tmp_path_factory.mktemp("serve")
    return folder, migrated(folder)


@pytest.fixture
def server(installed):
    folder, env = installed
    process, port = serve(env, folder / "server.log")
    yield process, port, folder / "server.log"
    if process.poll() is None:
        process.kill()
        process.wait()


def test_a_fresh_install_has_house_tables_for_each_ruleset(server):
    _, port, _ = server
    status, data = send(f"http://127.0.0.1:{port}/api/v1/tables/")
    assert status == 200
    tables = data["results"]
    assert {t["ruleset"] for t in tables} == {"510k", "gandengyan"}
    assert "510k-base5-half-dry" in {t["slug"] for t in tables}
    assert any(t["ruleset"] == "510k" and t["players"] == 2 for t in tables)
    assert any(t["options"].get("decks") == 2 for t in tables)


async def opened(port: int, token: str, match_id: int) -> list[EventStream]:
    """The match's stream and the account's, each past its first message."""
    auth = {"Authorization": f"Token {token}"}
    streams = [await EventStream.open(port, f"/api/v1/matches/{match_id}/stream/", auth),
               await EventStream.open(port, "/api/v1/stream/", auth)]
    assert [(await s.next()).event for s in streams] == ["view", "matches"]
    return streams


async def last_messages(streams: list[EventStream]) -> list:
    """Every message each stream sends until it ends."""
    found = []
    for stream in streams:
        messages = []
        while (message := await stream.next(timeout=STOPPED_WITHIN)) is not None:
            messages.append(message)
        found.append(messages)
        await stream.close()
    return found


def test_one_ctrl_c_ends_the_open_streams_and_stops_the_server(server):
    process, port, log = server
    url = f"http://127.0.0.1:{port}/api/v1"
    token = send(f"{url}/auth/guest/", "POST")[1]["token"]
    status, view = send(f"{url}/matches/", "POST", {"ruleset": "gandengyan", "seats": bots(4)},
                        token)
    assert status == 201

    async def ctrl_c() -> list:
        streams = await opened(port, token, view["id"])
        process.send_signal(signal.SIGINT)
        return await last_messages(streams)

    for messages in asyncio.run(ctrl_c()):
        assert messages[-1].event == "restarting"
        assert messages[-1].data["code"] == "restarting" and messages[-1].data["retry_ms"] > 0
    assert process.wait(timeout=STOPPED_WITHIN) == 0
    said = log.read_text()
    assert "Serving on" in said and "Stopping" in said and said.rstrip().endswith("Stopped.")
