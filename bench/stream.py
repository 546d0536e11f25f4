"""Live streams under load: one web process (gunicorn, one uvicorn worker) holds STREAMS open
match streams, one per player of STREAMS / 4 all-human gandengyan matches; the acts go to a
second web process, so every update reaches the streams through Redis pub/sub.

Prints:
- memory per idle stream: the stream process's resident memory with every stream open, less
  what it held before, over STREAMS;
- CPU at idle: the stream process's CPU time while nothing happens for IDLE_SECONDS (heartbeats,
  the process's looks at its matches), in % of one core;
- the time from an act's commit to its message at the client, p50 and p99: with 1 active stream
  (a match of its own, one stream open on it) and with 200 active streams (50 of the matches
  played at once), every other stream still open. An act's commit is taken as the moment its
  notice reaches a Redis subscriber in this process (the notice is published as the transaction
  commits); acts are paced (ACT_RATES) so that what is measured is the way to the client, not
  a queue of acts.

With `--workers 2`, the streams' server runs two web processes (the kernel spreads the
connections between them); memory and CPU are then their sums. The bench's own process freezes
its objects once the streams are open (`gc.freeze()`): its garbage collections would otherwise be
counted as the server's latency.

Run: `.venv/bin/python bench/stream.py [--workers N] [--smoke]` (about three minutes;
PostgreSQL on 127.0.0.1:5432, user postgres, and `redis-server` on PATH; it creates and drops
the database `cardtable_bench_stream`, or `$BENCH_DATABASE`, and runs its own Redis on a free
port).
"""

import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import PG, Table, free_port, request, tokens  # noqa: E402
from bench.smoke import parser  # noqa: E402
from tests.sse import EventStream  # noqa: E402

SMOKE = "--smoke" in sys.argv[1:]  # parsed by main(); the figures below are module-wide
DATABASE = os.environ.get("BENCH_DATABASE", "cardtable_bench_stream")
STREAMS = 8 if SMOKE else int(os.environ.get("BENCH_STREAMS", "1000"))
IDLE_SECONDS = 1.0 if SMOKE else float(os.environ.get("BENCH_IDLE_SECONDS", "30"))
ACTIVE_MATCHES = 50  # x 4 seats = 200 active streams
ACTS_ONE = 10 if SMOKE else 200
ACT_SECONDS = 2.0 if SMOKE else float(os.environ.get("BENCH_SECONDS", "40"))
ACT_RATES = {"1 active stream": 10.0, "200 active streams": 25.0}  # acts per second
REDIS_PORT = free_port()
ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "CACHE_"))},
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DATABASE_URL": f"{PG}/{DATABASE}",
    "LIVE_REDIS_URL": f"redis://127.0.0.1:{REDIS_PORT}/0",
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_SSL_REDIRECT": "0",
    "LOG_LEVEL": "WARNING",
    "PYTHONPATH": str(ROOT),
    "PYTHONWARNINGS": "ignore::UserWarning",  # whitenoise: no collected static files, none needed
}
TICKS = os.sysconf("SC_CLK_TCK")


class QuietTable(Table):
    """No turn clock: at idle nothing happens but what the streams do themselves."""

    OPTIONS = {**Table.OPTIONS, "turn_seconds": None}


def database(create: bool) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        if create:
            conn.execute(f"CREATE DATABASE {DATABASE}")
    if create:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                       cwd=ROOT, env=ENV, check=True)


def server(port: int, workers: int = 1) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.asgi:application", "--worker-class",
         "uvicorn_worker.UvicornWorker", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
         "--log-level", "warning", "--no-control-socket", "--backlog", "4096"],
        cwd=ROOT, env=ENV)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if request(port, "GET", "/api/v1/health/")[0] == 200:
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("gunicorn did not answer within 30 s")


def worker_pids(master: subprocess.Popen) -> list[int]:
    children = Path(f"/proc/{master.pid}/task/{master.pid}/children").read_text().split()
    return [int(child) for child in children]


def rss_mb(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) / 1024
    return total


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime
    return total


class Clock:
    """When each act's notice (match, version) reached Redis, and when each update reached a
    stream; the latencies between them."""

    def __init__(self):
        self.published: dict[tuple[int, int], float] = {}
        self.arrived: list[tuple[int, int, float]] = []
        self.counting: set[int] = set()

    async def listen(self, ready: asyncio.Event) -> None:
        from redis import asyncio as aioredis

        client = aioredis.from_url(ENV["LIVE_REDIS_URL"])
        async with client.pubsub() as pubsub:
            await pubsub.psubscribe("cardtable:0:match:*")
            ready.set()
            async for message in pubsub.listen():
                if message["type"] == "pmessage":
                    notice = json.loads(message["data"])
                    self.published[notice["match"], notice["version"]] = time.monotonic()

    async def follow(self, stream: EventStream, match_id: int) -> None:
        while (message := await stream.next(timeout=3600)) is not None:
            if message.event == "update" and match_id in self.counting:
                self.arrived.append((match_id, message.data["version"], message.at))

    def latencies_ms(self) -> list[float]:
        return [(at - self.published[m, v]) * 1000 for m, v, at in self.arrived
                if (m, v) in self.published]


async def open_streams(port: int, pairs: list[tuple[str, int]], clock: Clock) -> list:
    """A stream per (token, match), each read until its first message (the view); then read
    on by the clock."""

    async def one(token: str, match_id: int):
        stream = await EventStream.open(port, f"/api/v1/matches/{match_id}/stream/",
                                        {"Authorization": f"Token {token}"})
        assert stream.status == 200, stream.status
        first = await stream.next()
        assert first.event == "view"
        return stream, asyncio.create_task(clock.follow(stream, match_id))

    opened = []
    for start in range(0, len(pairs), 100):
        opened += await asyncio.gather(*(one(t, m) for t, m in pairs[start:start + 100]))
    return opened


def play(tables: list[Table], rate: float, seconds: float | None, acts: int | None) -> int:
    """Acts on `tables` in turn, paced at `rate` per second overall, from a few threads, until
    `seconds` have passed or `acts` were made; how many were made."""
    workers = min(5, len(tables))
    made = [0] * workers
    deadline = time.monotonic() + (seconds or 3600)
    lock = threading.Lock()

    def loop(i: int) -> None:
        mine = tables[i::workers]
        started, n = time.monotonic(), 0
        while time.monotonic() < deadline:
            with lock:
                if acts is not None and sum(made) >= acts:
                    return
            mine[n % len(mine)].act()
            n += 1
            made[i] += 1
            time.sleep(max(0.0, started + n * workers / rate - time.monotonic()))

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(loop, range(workers)))
    return sum(made)


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return (round(statistics.median(ordered), 1),
            round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 1))


async def measure(stream_port: int, act_port: int, stream_master: subprocess.Popen) -> dict:
    figures: dict = {}
    seat_tokens = await asyncio.to_thread(tokens, STREAMS + 4, ENV)
    with ThreadPoolExecutor(8) as pool:
        tables = list(pool.map(lambda i: QuietTable(act_port, seat_tokens[4 * i:4 * i + 4]),
                               range(STREAMS // 4 + 1)))
    solo, tables = tables[-1], tables[:-1]
    pid = worker_pids(stream_master)
    clock = Clock()
    ready = asyncio.Event()
    listener = asyncio.create_task(clock.listen(ready))
    await ready.wait()

    warm = await open_streams(stream_port, [(seat_tokens[0], tables[0].id)] * 10, clock)
    for stream, task in warm:
        task.cancel()
        await stream.close()
    await asyncio.sleep(2)
    before = rss_mb(pid)
    pairs = [(seat_tokens[4 * i + s], table.id) for i, table in enumerate(tables)
             for s in range(4)]
    started = time.monotonic()
    streams = await open_streams(stream_port, pairs, clock)
    gc.freeze()  # this process's streams: see the module's docstring
    figures["streams open"] = len(streams)
    figures["seconds to open them (view included)"] = round(time.monotonic() - started, 1)
    await asyncio.sleep(5)
    after = rss_mb(pid)
    figures["stream process RSS MB before / with them"] = f"{before:.1f} / {after:.1f}"
    figures["memory per idle stream KB"] = round((after - before) * 1024 / len(streams), 1)
    cpu, wall = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(IDLE_SECONDS)
    share = (cpu_seconds(pid) - cpu) / (time.monotonic() - wall) * 100
    figures[f"CPU at idle, % of one core ({IDLE_SECONDS:.0f} s)"] = round(share, 2)

    (one,) = await open_streams(stream_port, [(seat_tokens[STREAMS], solo.id)], clock)
    streams.append(one)
    runs = {"1 active stream": ([solo], None, ACTS_ONE),
            "200 active streams": (tables[:ACTIVE_MATCHES], ACT_SECONDS, None)}
    for name, (playing, seconds, acts) in runs.items():
        clock.arrived.clear()
        clock.counting = {t.id for t in playing}
        started = time.monotonic()
        made = await asyncio.to_thread(play, playing, ACT_RATES[name], seconds, acts)
        await asyncio.sleep(1)  # the last messages
        rate = made / (time.monotonic() - started)
        p50, p99 = percentiles(clock.latencies_ms())
        figures[f"{name}: acts/s, messages"] = f"{rate:.1f}, {len(clock.arrived)}"
        figures[f"{name}: commit -> client p50 / p99 ms"] = f"{p50} / {p99}"
    figures["stream process RSS MB at the end"] = round(rss_mb(pid), 1)
    for stream, task in streams:
        task.cancel()
        await stream.close()
    listener.cancel()
    return figures


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--workers", type=int, default=1, help="web processes of the streams")
    workers = arguments.parse_args().workers
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}; {} stream process(es)".format(
        *os.getloadavg(), workers))
    redis = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(REDIS_PORT),
                              "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
    database(create=True)
    stream_port, act_port = free_port(), free_port()
    streams, acts = server(stream_port, workers), server(act_port)
    try:
        figures = asyncio.run(measure(stream_port, act_port, streams))
    finally:
        for process in (streams, acts, redis):
            process.terminate()
            process.wait(timeout=30)
        from django.db import connections

        connections.close_all()
        database(create=False)
    width = max(map(len, figures))
    for name, value in figures.items():
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
