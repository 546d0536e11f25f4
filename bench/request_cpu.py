"""CPU time per request of the production ASGI application, one request at a time in this
process: bench/api.py's two loads (a bare DRF raw-SQL insert+read; a seat's view GET then a random
legal act of an all-human gandengyan match) without a server, its clients or other requests
sharing the cores, so that a change to a request's own work shows through the noise of a busy
machine. PostgreSQL's own CPU is not counted (the database runs in its own processes).

Prints the median over five runs of CPU ms per baseline request and per view+act pair, and their
ratio (bench/api.py's pair ratio counts the same work, plus the server's and clients').

Run: `.venv/bin/python bench/request_cpu.py [--pairs N] [--smoke]` (PostgreSQL on 127.0.0.1:5432,
user postgres; it creates and drops the database `cardtable_bench`, or `$BENCH_DATABASE`).
"""

import asyncio
import json
import os
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import api  # noqa: E402
from bench.smoke import parser  # noqa: E402

RUNS = 5


async def call(app, method: str, path: str, body=None, token=None) -> tuple[int, dict]:
    data = b"" if body is None else json.dumps(body).encode()
    headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
               (b"content-length", str(len(data)).encode())]
    if token:
        headers.append((b"authorization", f"Token {token}".encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
             "root_path": "", "headers": headers, "client": ("127.0.0.1", 50000),
             "server": ("127.0.0.1", 8000)}
    messages = [{"type": "http.request", "body": data, "more_body": False}]
    answer = {"status": 0, "body": b""}

    async def receive():
        if messages:
            return messages.pop()
        await asyncio.Event().wait()  # the client stays: no disconnect

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return answer["status"], json.loads(answer["body"]) if answer["body"] else {}


async def measure(pairs: int, seats: list[str]) -> dict:
    from config.asgi import application as app

    status, view = await call(app, "POST", "/api/v1/matches/", {
        "ruleset": "gandengyan", "options": api.Table.OPTIONS,
        "seats": [{"type": "human"}] * 4}, seats[0])
    assert status == 201, view
    for token in seats[1:]:
        status, view = await call(app, "POST", "/api/v1/matches/join/",
                                  {"code": view["invite_code"]}, token)
        assert status == 200, view
    match, to_act, rng = view["id"], [view["to_act"]], random.Random(1)

    async def pair():
        token = seats[to_act[0]]
        status, view = await call(app, "GET", f"/api/v1/matches/{match}/", token=token)
        assert status == 200, view
        body = {"expected_version": view["version"], "action": rng.choice(view["legal_actions"])}
        status, after = await call(app, "POST", f"/api/v1/matches/{match}/act/", body, token)
        assert status == 200, after
        to_act[0] = after["to_act"]

    async def baseline():
        status, _ = await call(app, "POST", "/bench/row/", {})
        assert status == 200

    per_run = max(1, pairs // RUNS)
    costs: dict[str, list[float]] = {"baseline": [], "pair": []}
    for work in (baseline, pair):  # warm: connections, prepared statements, caches
        for _ in range(min(100, per_run)):
            await work()
    for _ in range(RUNS):  # interleaved: both see the machine as it is
        for name, work in (("baseline", baseline), ("pair", pair)):
            started = time.process_time()
            for _ in range(per_run):
                await work()
            costs[name].append((time.process_time() - started) * 1000 / per_run)
    base, pair_ms = statistics.median(costs["baseline"]), statistics.median(costs["pair"])
    return {"baseline request CPU ms": round(base, 3), "view+act pair CPU ms": round(pair_ms, 3),
            "baseline ÷ pair": round(base / pair_ms, 3)}


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--pairs", type=int, default=2000, help="pairs (and baseline "
                           "requests) measured, over five interleaved runs")
    args = arguments.parse_args()
    os.environ.update(api.ENV)
    warnings.simplefilter("ignore", UserWarning)  # whitenoise: no collected static files needed
    api.recreate_database()
    try:
        seats = api.tokens(4)  # outside the event loop: the ORM is synchronous
        figures = asyncio.run(measure(50 if args.smoke else args.pairs, seats))
    finally:
        from django.db import connections

        connections.close_all()
        api.drop_database()
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    for name, value in figures.items():
        print(f"{name:<26} {value}")


if __name__ == "__main__":
    main()
