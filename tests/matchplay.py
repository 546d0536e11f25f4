"""Playing matches through the API only, as a client would: shared by the API tests (Django's
test client, eager bots) and the integration tests (real HTTP, a real worker)."""

import itertools
import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

from bots.strategies import Basic
from bots.strategies.random_bot import RandomBot
from games.engine.actions import Action, Play, action_from_dict
from games.engine.combos import Reading
from games.engine.registry import get_ruleset

API = "/api/v1"


class Client:
    """One player's calls; `seen` keeps every JSON body received, for the hidden-info scans."""

    def __init__(self, send: Callable[[str, str, dict | None, dict], tuple[int, dict | None]]):
        self._send = send
        self.seen: list[tuple[str, int, object]] = []
        self.headers: dict[str, str] = {}

    def call(self, method: str, path: str, body: dict | None = None, **headers):
        status, data = self._send(method, API + path, body, {**self.headers, **headers})
        self.seen.append((path, status, data))
        return status, data

    def get(self, path: str, **headers):
        return self.call("GET", path, None, **headers)

    def post(self, path: str, body: dict | None = None):
        return self.call("POST", path, body or {})


def at_once(count: int, call: Callable[[int], object]) -> list:
    """`call(i)` for i in range(count), each in a thread of its own, released together (a
    barrier): a race, as clients that send at the same moment make it; the answers, in order."""
    together = threading.Barrier(count)

    def race(i: int):
        together.wait()
        return call(i)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(race, range(count)))


def client_sender(api_client) -> Callable:
    """A sender over rest_framework's APIClient (in-process, eager bots)."""

    def send(method, path, body, headers):
        extra = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()}
        if method == "GET":
            response = api_client.get(path, **extra)
        else:
            response = api_client.post(path, body, format="json", **extra)
        content = response.content
        return response.status_code, json.loads(content) if content else None

    return send


def http_sender(base_url: str) -> Callable:
    """A sender over real HTTP (urllib), for a live server."""

    def send(method, path, body, headers):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            base_url + path, data=data, method=method,
            headers={"Content-Type": "application/json", **headers},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, content = response.status, response.read()
        except urllib.error.HTTPError as err:
            status, content = err.code, err.read()
        return status, json.loads(content) if content else None

    return send


def sign_in(client: Client) -> dict:
    status, data = client.post("/auth/guest/")
    assert status in (200, 201), data
    client.headers["Authorization"] = f"Token {data['token']}"
    return data


def new_player() -> Client:
    """A guest signed in over Django's test client (in-process, eager bots)."""
    from rest_framework.test import APIClient

    client = Client(client_sender(APIClient()))
    sign_in(client)
    return client


def counted_seeds(monkeypatch, prefix: str) -> None:
    """Round seeds from a counter, so deals repeat from run to run."""
    from games import services

    counter = itertools.count()
    monkeypatch.setattr(services.progress, "new_seed", lambda: f"{prefix}-{next(counter):04d}")


def legal_from_view(view: dict) -> list[Action]:
    """The listed actions as engine values (plays keep their `extras` allowance)."""
    actions = []
    for item in view["legal_actions"]:
        if item["type"] == "play":
            reading = Reading.from_dict(item["reading"]) if "reading" in item else None
            actions.append(Play(tuple(item["cards"]), reading, item.get("extras", 0)))
        else:
            actions.append(action_from_dict(item))
    return actions


def choose(view: dict, rng: random.Random) -> dict:
    """A person playing at random among the listed actions, through the JSON view only."""
    engine = get_ruleset(view["ruleset"])
    state = view["state"]
    seen = Basic(state["seat"], tuple(legal_from_view(view)),
                 tuple(card["id"] for card in state["hand"]))
    return RandomBot(engine)(seen, rng).to_dict()


def act(client: Client, view: dict, action: dict) -> tuple[int, dict]:
    return client.post(
        f"/matches/{view['id']}/act/",
        {"expected_version": view["version"], "action": action},
    )


def play_turns(
    client: Client, view: dict, rng: random.Random, wait: Callable[[dict], dict] | None = None,
    max_acts: int = 5000,
) -> Iterator[dict]:
    """Act whenever it is our turn until the match is finished; yields each view. Without
    `wait` the bots must already have answered (eager mode)."""
    for _ in range(max_acts):
        if view["status"] == "finished":
            return
        if not view["your_turn"]:
            assert wait is not None, f"not our turn and nobody to wait for: {view['to_act']}"
            view = wait(view)
            yield view
            continue
        status, data = act(client, view, choose(view, rng))
        assert status == 200, data
        view = data
        yield view
    raise AssertionError("the match did not finish")


def poller(client: Client, timeout: float = 60.0) -> Callable[[dict], dict]:
    """Wait for the bots (a real worker) with conditional GETs until the version moves on."""

    def wait(view: dict) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, data = client.get(
                f"/matches/{view['id']}/", **{"If-None-Match": f'"{view["version"]}"'}
            )
            if status == 200:
                return data
            assert status == 304, data
            time.sleep(0.02)
        raise AssertionError(f"the bots did not act within {timeout}s at version "
                             f"{view['version']}")

    return wait


def create(client: Client, ruleset: str, options: dict, seats: list[dict]) -> dict:
    status, data = client.post(
        "/matches/", {"ruleset": ruleset, "options": options, "seats": seats}
    )
    assert status == 201, data
    return data


def bots(n: int, level: str = "random") -> list[dict]:
    return [{"type": "human"}] + [{"type": "bot", "level": level}] * n


def self_playing(client: Client, count: int) -> list[int]:
    """`count` long gandengyan matches that play themselves (three bots, the client's seat in
    托管): every turn is the server's. Their ids."""
    ids = []
    for _ in range(count):
        view = create(client, "gandengyan", {"starting_score": 5000}, bots(3, "normal"))
        status, view = client.post(f"/matches/{view['id']}/autoplay/", {"on": True})
        assert status == 200, view
        ids.append(view["id"])
    return ids


def played_out(clients: list[Client], match_id: int, rng: random.Random,
               max_acts: int = 200) -> dict:
    """A match of several people (`clients` by seat) played to its end, each acting at random
    on their turn; the first person's last view."""
    for _ in range(max_acts):
        view = clients[0].get(f"/matches/{match_id}/")[1]
        if view["status"] == "finished":
            return view
        mover = next(c for c in clients if c.get(f"/matches/{match_id}/")[1]["your_turn"])
        fresh = mover.get(f"/matches/{match_id}/")[1]
        status, data = mover.post(f"/matches/{match_id}/act/",
                                  {"expected_version": fresh["version"],
                                   "action": choose(fresh, rng)})
        assert status == 200, data
    raise AssertionError("the match did not finish")


def play_through(client: Client, view: dict, rng: random.Random, acts: int | None = None,
                 wait: Callable[[dict], dict] | None = None) -> dict:
    """Play to the end (or `acts` of our turns) and return the last view."""
    for count, latest in enumerate(play_turns(client, view, rng, wait), start=1):
        view = latest
        if acts is not None and count >= acts:
            break
    return view


def record_bot_turns(monkeypatch, seed_prefix: str) -> list[tuple[int, int]]:
    """Bot turns recorded instead of run (a test delivers them itself), and round seeds from a
    counter so deals repeat."""
    from games import hooks

    jobs: list[tuple[int, int]] = []
    monkeypatch.setattr(hooks, "announce_server_turn", lambda *job, **_: jobs.append(job))
    counted_seeds(monkeypatch, seed_prefix)
    return jobs
