"""Load test (Locust): people who sign in as guests, take a seat (a quick match at a house table,
or a match of their own against bots), hold the match's live stream and act at human pace, then
play again.

Each person follows their match as the web table does: one stream (`GET .../stream/`), the
whole view first, then each update's `changed` applied to it; they act (a random listed action,
as the tests' players do) 1 to 3 seconds after the stream says it is their turn. Besides Locust's
own figures per request (`act` among them: POST .../act/), it records:
- `SSE push`: from sending an act until its update arrives on the stream;
- `SSE bot reply`: in a match against bots only, from sending an act until the stream brings
  the first bot's move after it;
- tables: the matches in play among the people at once (the most, printed at the end).
With `LOAD_STEPS` set (e.g. `10,20,40,80`) the people come in steps of `LOAD_STEP_SECONDS`
(60) each, and the end prints, per step, acts/s and the p99 of act, push and bot reply, and the
first step where each degrades (p99 over twice the first step's, or errors over 1%).

Against `make run` (the embedded mode: one process, SQLite; its throttles let one address sign
up only a few guests, so serve with the load settings):
    DJANGO_SETTINGS_MODULE=bench.load_settings make run
    .venv/bin/locust -f bench/locustfile.py --headless -H http://127.0.0.1:8000 -u 20 -r 2 -t 2m
Against the compose stack (DJANGO_SETTINGS_MODULE=bench.load_settings docker compose up -d):
    .venv/bin/locust -f bench/locustfile.py --headless -H http://127.0.0.1:8000 -u 200 -r 5 -t 5m
docs/operations.md records a run on this machine.
"""

import json
import os
import random
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import gevent
from locust import HttpUser, LoadTestShape, between, events, task

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.matchplay import choose  # noqa: E402  (the repository's root on the path first)

API = "/api/v1"
THINK = (1.0, 3.0)  # seconds a person takes to act once it is their turn
CREATE_SHARE = 0.5  # the others quick-match at a house table
OWN_MATCHES = [("510k", {"rounds": 1}), ("gandengyan", {})]
STEPS = [int(n) for n in os.environ.get("LOAD_STEPS", "").split(",") if n.strip()]
STEP_SECONDS = float(os.environ.get("LOAD_STEP_SECONDS", "60"))


class Tables:
    """The matches in play among every person of this Locust process."""

    def __init__(self):
        self.lock = threading.Lock()
        self.playing: dict[int, int] = defaultdict(int)  # match: people in it
        self.peak = 0

    def join(self, match_id: int) -> None:
        with self.lock:
            self.playing[match_id] += 1
            self.peak = max(self.peak, len(self.playing))

    def leave(self, match_id: int) -> None:
        with self.lock:
            self.playing[match_id] -= 1
            if self.playing[match_id] <= 0:
                del self.playing[match_id]


TABLES = Tables()
SAMPLES: list[tuple[float, str, float, bool, int]] = []  # (when, name, ms, failed, tables)
STARTED = time.monotonic()


@events.test_start.add_listener
def _started(environment, **kwargs):
    global STARTED
    STARTED = time.monotonic()


@events.request.add_listener
def _sample(request_type, name, response_time, exception=None, **kwargs):
    if name in ("act", "SSE push", "SSE bot reply"):
        SAMPLES.append((time.monotonic(), name, response_time, exception is not None,
                        len(TABLES.playing)))


def apply(view: dict, changed: dict) -> None:
    """An update's `changed` over the view, as the web table applies it (js/feed.js)."""
    for key, value in changed.items():
        if key == "state" and value is not None:
            state = view.setdefault("state", {}) or {}
            state.update(value)
            view["state"] = state
        else:
            view[key] = value


class Person(HttpUser):
    wait_time = between(0.2, 0.5)  # how often a person looks whether to act (cheap: no request)

    def on_start(self):
        answer = self.client.post(f"{API}/auth/guest/", json={}, name="sign in")
        answer.raise_for_status()
        self.client.headers["Authorization"] = f"Token {answer.json()['token']}"
        self.rng = random.Random()
        self.match_id = None
        self.view: dict | None = None
        self.turn_since = None  # when the stream said it was our turn
        # Our act in flight: (the version it was sent at, when), until the stream shows it.
        self.pending: tuple[int, float] | None = None
        self.awaiting_bot: float | None = None
        self.reader = None

    def on_stop(self):
        self._leave()

    def _fire(self, name: str, started: float) -> None:
        self.environment.events.request.fire(
            request_type="SSE", name=name, response_time=(time.monotonic() - started) * 1000,
            response_length=0, exception=None, context={})

    def _seat(self) -> None:
        self.against_bots = self.rng.random() < CREATE_SHARE
        if self.against_bots:
            ruleset, options = self.rng.choice(OWN_MATCHES)
            answer = self.client.post(f"{API}/matches/", name="create", json={
                "ruleset": ruleset, "options": options,
                "seats": [{"type": "human"}] + [{"type": "bot", "level": "normal"}] * 3})
        else:
            tables = self.client.get(f"{API}/tables/", name="tables").json()["results"]
            slug = self.rng.choice(tables)["slug"]
            answer = self.client.post(f"{API}/tables/{slug}/play/", name="quick match")
        answer.raise_for_status()
        self.match_id = answer.json()["id"]  # the match's view
        TABLES.join(self.match_id)
        self.reader = gevent.spawn(self._follow, self.match_id)

    def _leave(self) -> None:
        if self.reader is not None:
            self.reader.kill(block=False)
            self.reader = None
        if self.match_id is not None:
            TABLES.leave(self.match_id)
        self.match_id, self.view, self.turn_since = None, None, None
        self.pending = self.awaiting_bot = None

    def _follow(self, match_id: int) -> None:
        """The match's stream, until it ends: the view kept up to date, turns noticed."""
        with self.client.get(f"{API}/matches/{match_id}/stream/", stream=True,
                             name="stream", catch_response=True, timeout=None) as answer:
            answer.success()  # its time is the stream's whole life: not a latency
            event, data = None, None
            for line in answer.iter_lines(decode_unicode=True):
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                elif line == "" and event is not None:
                    self._message(event, data)
                    event, data = None, None

    def _message(self, event: str, data: dict) -> None:
        if event == "view":
            self.view = data
        elif event == "update" and self.view is not None:
            # The stream may show the act before its answer comes: timed from the sending.
            if self.pending is not None and data["version"] > self.pending[0]:
                self._fire("SSE push", self.pending[1])
                self.pending = None
            if self.awaiting_bot is not None and any(
                    e.get("actor") == "bot" for e in data["events"]):
                self._fire("SSE bot reply", self.awaiting_bot)
                self.awaiting_bot = None
            apply(self.view, data.get("changed") or {})
            self.view["version"] = data["version"]
        else:
            return
        if not self.view.get("your_turn"):
            self.turn_since = None  # played meanwhile (a clock ran out, 托管)
        elif self.turn_since is None:
            self.turn_since = time.monotonic() + self.rng.uniform(*THINK)

    @task
    def play(self):
        if self.match_id is None:
            self._seat()
            return
        view = self.view
        if view is None:
            return
        if view.get("status") in ("finished", "aborted") or (
                self.reader is not None and self.reader.dead):
            self._leave()
            return
        if self.turn_since is None or time.monotonic() < self.turn_since:
            return
        self.turn_since = None
        if not view.get("legal_actions"):  # the view kept from the stream is off: read it again
            view = self.view = self.client.get(f"{API}/matches/{self.match_id}/",
                                               name="view").json()
            if not view.get("your_turn"):
                return
        self.pending = (view["version"], time.monotonic())
        # At a quick match the next seat may be another person's, who takes their time.
        self.awaiting_bot = self.pending[1] if self.against_bots else None
        with self.client.post(f"{API}/matches/{self.match_id}/act/", name="act",
                              catch_response=True,
                              json={"expected_version": view["version"],
                                    "action": choose(view, self.rng)}) as answer:
            if answer.status_code == 409:  # moved on meanwhile (a clock, a bot): not a failure
                answer.success()
            elif answer.status_code != 200:
                answer.failure(f"{answer.status_code}: {answer.text[:200]}")
            if answer.status_code != 200:
                self.pending = self.awaiting_bot = None


if STEPS:
    class Steps(LoadTestShape):
        """LOAD_STEPS people, each step for LOAD_STEP_SECONDS."""

        def tick(self):
            step = int(self.get_run_time() // STEP_SECONDS)
            if step >= len(STEPS):
                return None
            return STEPS[step], max(1, STEPS[step] // 5)


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else float("nan")


@events.quitting.add_listener
def _report(environment, **kwargs):
    print(f"\ntables in play: at most {TABLES.peak} at once")
    if not STEPS:
        return
    names = ("act", "SSE push", "SSE bot reply")
    print(f"{'people':>7} {'tables':>7} {'acts/s':>7} "
          + " ".join(f"{n + ' p99 ms':>20}" for n in names))
    first: dict[str, float] = {}
    degraded: dict[str, int] = {}
    for index, people in enumerate(STEPS):
        begin, end = STARTED + index * STEP_SECONDS, STARTED + (index + 1) * STEP_SECONDS
        rows = [s for s in SAMPLES if begin <= s[0] < end]
        acts = [s for s in rows if s[1] == "act"]
        cells = []
        for name in names:
            times = [s[2] for s in rows if s[1] == name]
            failed = sum(s[3] for s in rows if s[1] == name)
            p99 = _p99(times)
            if times:
                first.setdefault(name, p99)
                if name not in degraded and (p99 > 2 * first[name] or failed > 0.01 * len(times)):
                    degraded[name] = people
            cells.append(f"{p99:20.0f}")
        tables = max((s[4] for s in rows), default=0)
        print(f"{people:7d} {tables:7d} {len(acts) / STEP_SECONDS:7.1f} " + " ".join(cells))
    for name in names:
        print(f"{name}: first degrades at "
              f"{str(degraded[name]) + ' people' if name in degraded else 'no step measured'}")
