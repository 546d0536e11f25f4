"""Match API figures against a real server as production runs it (gunicorn with uvicorn workers:
ASGI) on PostgreSQL, on a free port.

Prints (and `run()` returns):
- the median act latency at move ~10 and at move ~300 of a long match (one client; see
  `long_match_latency`), and their ratio, which must stay within 1.5: the snapshot keeps an
  act's cost independent of the log;
- acts per second with 4 concurrent clients, each playing its own all-human gandengyan match:
  "acts only" (the clients send nothing but acts: passes when answering, a card they know they
  hold when leading, a GET only after a new deal) and "view-then-act pairs" (the actor reads
  its view, then sends a random legal action from it: a client's everyday loop);
- the baselines: bare DRF endpoints that insert and read one row (bench/api_urls.py), in raw
  SQL and through the ORM, 4 concurrent clients: requests/s, p50. The four loads take turns
  (`interleaved`: six slices each), so that each ratio compares the same minutes of the machine.
- the CPU time per raw-SQL baseline request and per view-then-act pair, split between the
  server (gunicorn and its workers), the database (PostgreSQL's processes) and the clients
  (this process): where a pair's cost goes beyond two requests'.
Targets: acts/s (acts only) and view-then-act pairs/s each ≥ 1/3 of the baseline's requests/s.

Run: `.venv/bin/python bench/api.py [--smoke]` (about a minute; PostgreSQL on 127.0.0.1:5432, user
postgres; it creates and drops the database `cardtable_bench`, or `$BENCH_DATABASE`).
"""

import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import procs  # noqa: E402
from bench.smoke import parser  # noqa: E402

PG = "postgres://postgres@127.0.0.1:5432"
DATABASE = os.environ.get("BENCH_DATABASE", "cardtable_bench")  # several runs: one each
CLIENTS = 4
SECONDS = float(os.environ.get("BENCH_SECONDS", "12"))  # per load, in SLICES turns
SLICES = 6
EARLY, LATE_FROM, EARLY_TABLES = range(5, 16), 295, 3
ENV = {
    **os.environ,
    "DJANGO_SETTINGS_MODULE": "bench.api_settings",
    "DATABASE_URL": f"{PG}/{DATABASE}",
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_SSL_REDIRECT": "0",
    "PYTHONPATH": str(ROOT),
    "PYTHONWARNINGS": "ignore::UserWarning",  # whitenoise: no collected static files, none needed
}
for name in ("CELERY_BROKER_URL", "CACHE_URL"):  # no bots here: nothing to queue
    ENV.pop(name, None)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def recreate_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
        conn.execute(f"CREATE DATABASE {DATABASE}")
    with psycopg.connect(f"{PG}/{DATABASE}", autocommit=True) as conn:
        conn.execute("CREATE TABLE bench_row (id bigserial PRIMARY KEY, payload text)")
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                   cwd=ROOT, env=ENV, check=True)


def drop_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


class Server:
    def __init__(self, port: int):
        self.port = port
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.asgi:application", "--worker-class",
             "uvicorn_worker.UvicornWorker", "--bind",
             f"127.0.0.1:{port}", "--workers", str(CLIENTS), "--log-level", "warning",
             "--no-control-socket"],
            cwd=ROOT, env=ENV,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if request(port, "GET", "/api/v1/health/")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise SystemExit("gunicorn did not answer within 30 s")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def request(port: int, method: str, path: str, body=None, token=None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    conn.request(method, path, None if body is None else json.dumps(body), headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, json.loads(data) if data else {}


def tokens(count: int, env: dict = ENV) -> list[str]:
    """Players made directly in the database: sign-up is throttled, and not what is measured."""
    os.environ.update({k: env[k] for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "DEBUG",
                                           "SECRET_KEY", "ALLOWED_HOSTS")})
    import django

    django.setup()
    from accounts import tokens
    from accounts.models import User

    made = []
    for _ in range(count):
        user = User.objects.create_user(f"bench-{random.getrandbits(48):x}")
        made.append(tokens.issue(user).key)
    return made


class Table:
    """One all-human gandengyan match whose seats the bench plays in turn."""

    OPTIONS = {"starting_score": 100000}

    def __init__(self, port: int, seat_tokens: list[str]):
        self.port, self.tokens = port, seat_tokens
        status, view = request(port, "POST", "/api/v1/matches/",
                               {"ruleset": "gandengyan", "options": self.OPTIONS,
                                "seats": [{"type": "human"}] * len(seat_tokens)},
                               seat_tokens[0])
        assert status == 201, view
        self.id = view["id"]
        for token in seat_tokens[1:]:
            status, view = request(port, "POST", "/api/v1/matches/join/",
                                   {"code": view["invite_code"]}, token)
            assert status == 200, view
        self.to_act = view["to_act"]
        self.rng = random.Random(self.id)

    def act(self) -> float:
        """The actor's view (untimed), then one timed act chosen at random among its legal
        actions; returns the act's latency in seconds."""
        token = self.tokens[self.to_act]
        status, view = request(self.port, "GET", f"/api/v1/matches/{self.id}/", token=token)
        assert status == 200 and view["your_turn"], view
        action = self.rng.choice(view["legal_actions"])
        body = {"expected_version": view["version"], "action": action}
        started = time.perf_counter()
        status, after = request(self.port, "POST", f"/api/v1/matches/{self.id}/act/", body,
                                token)
        elapsed = time.perf_counter() - started
        assert status == 200, after
        self.to_act = after["to_act"]
        return elapsed


class PassingTable(Table):
    """The same kind of match, played without reading a view before each act, so that only acts
    load the server: an answer is a pass (always legal when not leading) and a leader plays one
    card its own last act response showed in its hand; only a new deal needs a GET."""

    def __init__(self, port: int, seat_tokens: list[str]):
        super().__init__(port, seat_tokens)
        self.known: dict[int, list[dict]] = {}
        self.last: dict | None = None

    def _fresh(self, seat: int) -> dict:
        status, view = request(self.port, "GET", f"/api/v1/matches/{self.id}/",
                               token=self.tokens[seat])
        assert status == 200, view
        self.known[seat] = view["state"]["hand"]
        return view

    def act(self) -> float:
        seat = self.to_act
        last = self.last or self._fresh(seat)
        if last["state"]["trick"]:
            action = {"type": "pass"}
        else:
            cards = [c for c in self.known.get(seat, ()) if c["code"] not in ("SJ", "BJ")]
            if not cards:
                last = self._fresh(seat)
                cards = [c for c in self.known[seat] if c["code"] not in ("SJ", "BJ")]
            action = {"type": "play", "cards": [cards[0]["id"]]}
        body = {"expected_version": last["version"], "action": action}
        started = time.perf_counter()
        status, after = request(self.port, "POST", f"/api/v1/matches/{self.id}/act/", body,
                                self.tokens[seat])
        elapsed = time.perf_counter() - started
        assert status == 200, after
        if after["round"]["number"] != last["round"]["number"]:
            self.known.clear()  # a new deal
        self.known[seat] = after["state"]["hand"]
        self.to_act, self.last = after["to_act"], after
        return elapsed


def long_match_latency(port: int, seat_tokens: list[str], late_from: int = LATE_FROM,
                       early: range = EARLY) -> dict:
    """Median act latency at move ~10 and at move ~300. The long match is played to move ~295
    first; then its acts alternate with those of fresh matches of the same kind at moves 5..15
    (EARLY_TABLES of them, one sample each in turn), so that both figures see the same machine
    load and each median has EARLY_TABLES * 11 samples."""
    late_table = Table(port, seat_tokens[:4])
    for _ in range(late_from - 1):
        late_table.act()
    early_tables = [Table(port, seat_tokens[4 * i:4 * i + 4]) for i in range(1, EARLY_TABLES + 1)]
    for table in early_tables:
        for _ in range(early[0] - 1):
            table.act()
    early_times, late = [], []
    for _ in early:
        for table in early_tables:
            early_times.append(table.act())
            late.append(late_table.act())
    early_ms, late_ms = statistics.median(early_times) * 1000, statistics.median(late) * 1000
    return {"act p50 ms at move ~10": round(early_ms, 2),
            f"act p50 ms at moves {late_from}..{late_from + len(late) - 1}": round(late_ms, 2),
            "late / early": round(late_ms / early_ms, 3)}


def hammer(port: int, work, seconds: float) -> list[float]:
    """Run `work()` (returns a latency) from CLIENTS threads for `seconds`; all latencies."""
    results: list[list[float]] = [[] for _ in range(CLIENTS)]
    deadline = time.perf_counter() + seconds

    def loop(i: int) -> None:
        while time.perf_counter() < deadline:
            results[i].append(work(i))

    threads = [threading.Thread(target=loop, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [x for r in results for x in r]


def bare_request(port: int, path: str):
    """A client's work on a bare endpoint (the baselines): one request, its latency."""

    def work(_):
        started = time.perf_counter()
        status, _ = request(port, "POST", path, {})
        assert status == 200
        return time.perf_counter() - started

    return work


def postmaster_pid() -> int:
    """PostgreSQL's main process: the parent of a connection's backend."""
    import psycopg

    with psycopg.connect(f"{PG}/postgres") as conn:
        return int(procs.stat(conn.info.backend_pid)[1])


def cpu_by_side(server_pid: int, database_pid: int) -> dict[str, float]:
    """CPU seconds so far of the server (gunicorn and its workers), the database (PostgreSQL's
    processes, those that ended included) and this process (the clients)."""
    times = os.times()
    return {"server": procs.cpu_seconds(server_pid), "database": procs.cpu_seconds(database_pid),
            "client": times.user + times.system}


def interleaved(port: int, loads: dict, seconds: float = SECONDS, slices: int = SLICES,
                server_pid: int | None = None) -> dict[str, tuple]:
    """(per second, p50 ms, CPU ms per unit by side or None) of each load (a client's `work(i)`,
    CLIENTS clients at once) run for `seconds` in all, in `slices` turns taken one load after
    another: a ratio of two of them compares the same stretch of the machine's time, which on a
    shared host swings more between one minute and the next than the code does. With the
    server's pid, each load's CPU time per unit of work is split between the server, the
    database and the clients (Linux only)."""
    for work in loads.values():
        hammer(port, work, min(1.0, seconds))  # warm: the workers' connections, the tables
    database = postmaster_pid() if server_pid else None
    latencies: dict[str, list[float]] = {name: [] for name in loads}
    spent = dict.fromkeys(loads, 0.0)
    cpu = {name: dict.fromkeys(("server", "database", "client"), 0.0) for name in loads}
    for _ in range(slices):
        for name, work in loads.items():
            before = cpu_by_side(server_pid, database) if server_pid else None
            started = time.perf_counter()
            latencies[name] += hammer(port, work, seconds / slices)
            spent[name] += time.perf_counter() - started
            if before is not None:
                for side, total in cpu_by_side(server_pid, database).items():
                    cpu[name][side] += total - before[side]
    return {name: (round(len(latencies[name]) / spent[name], 1),
                   round(statistics.median(latencies[name]) * 1000, 2),
                   {side: round(total * 1000 / len(latencies[name]), 2)
                    for side, total in cpu[name].items()} if server_pid else None)
            for name in loads}


def run(smoke: bool = False) -> dict:
    seconds, late_from, early = (1.0, 20, range(5, 7)) if smoke else (SECONDS, LATE_FROM, EARLY)
    recreate_database()
    first = 4 * (1 + EARLY_TABLES)
    seat_tokens = tokens(first + 8 * CLIENTS)
    server = Server(free_port())
    try:
        figures = long_match_latency(server.port, seat_tokens[:first], late_from, early)
        second = first + 4 * CLIENTS
        passing = [PassingTable(server.port, seat_tokens[first + 4 * i:first + 4 * i + 4])
                   for i in range(CLIENTS)]
        viewing = [Table(server.port, seat_tokens[second + 4 * i:second + 4 * i + 4])
                   for i in range(CLIENTS)]
        rates = interleaved(server.port, {
            "raw SQL": bare_request(server.port, "/bench/row/"),
            "ORM": bare_request(server.port, "/bench/orm-row/"),
            "acts": lambda i: passing[i].act(),
            "pairs": lambda i: viewing[i].act(),
        }, seconds, 2 if smoke else SLICES, server.process.pid)
        for kind in ("raw SQL", "ORM"):
            figures.update({f"baseline req/s ({kind})": rates[kind][0],
                            f"baseline p50 ms ({kind})": rates[kind][1]})
        figures.update({"acts/s (acts only)": rates["acts"][0],
                        "act p50 ms (acts only)": rates["acts"][1],
                        "view-then-act pairs/s": rates["pairs"][0],
                        "act p50 ms (after a view GET)": rates["pairs"][1]})
        for name, unit in (("raw SQL", "request"), ("pairs", "pair")):
            figures[f"CPU ms per {unit} ({name}): server / database / client"] = " / ".join(
                str(ms) for ms in rates[name][2].values())
    finally:
        server.stop()
        from django.db import connections

        connections.close_all()
        drop_database()
    for kind in ("raw SQL", "ORM"):
        figures[f"acts/s / baseline ({kind})"] = round(
            figures["acts/s (acts only)"] / figures[f"baseline req/s ({kind})"], 3)
        figures[f"pairs/s / baseline ({kind})"] = round(
            figures["view-then-act pairs/s"] / figures[f"baseline req/s ({kind})"], 3)
    return figures


def main() -> None:
    figures = run(parser(__doc__).parse_args().smoke)
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    width = max(map(len, figures))
    for name, value in figures.items():
        print(f"{name:<{width}}  {value}")
    ratio = figures["late / early"]
    print(f"latency at move ~300 vs ~10: {ratio}x ({'within' if ratio <= 1.5 else 'ABOVE'} 1.5x)")
    for what in ("acts/s", "pairs/s"):
        for kind in ("raw SQL", "ORM"):
            share = figures[f"{what} / baseline ({kind})"]
            print(f"{what} vs the {kind} baseline: {share} "
                  f"({'meets' if share >= 1 / 3 else 'BELOW'} the 1/3 target)")


if __name__ == "__main__":
    main()
