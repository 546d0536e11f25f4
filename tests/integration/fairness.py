"""A person's match beside busy unattended ones on one worker (issue 21): how much longer than
the match's pace the person waits for each of the server's moves. Shared by
tests/integration/test_fairness.py and bench/fairness.py (any client: in-process or over HTTP;
the waits are read from the match's rows)."""

import random
import time

from games.models import Event, Match, Move
from games.services.progress import PACE_BREAKS
from tests.matchplay import Client, bots, choose, create

ENDLESS = {"starting_score": 100_000}  # 干瞪眼 that goes on for as long as it is measured


def busy_matches(client: Client, count: int) -> list[int]:
    """`count` unpaced matches that play themselves as fast as the worker lets them: three
    normal bots, the client's seat in 托管 asked for (present: they never pause). Their ids."""
    ids = []
    for _ in range(count):
        view = create(client, "gandengyan", {**ENDLESS, "server_pace_ms": 0}, bots(3, "normal"))
        status, view = client.post(f"/matches/{view['id']}/autoplay/", {"on": True})
        assert status == 200, view
        ids.append(view["id"])
    return ids


def person_plays(client: Client, pace_ms: int, turns: int, timeout: float,
                 rng: random.Random, replies: int = 0) -> int:
    """A person against three normal bots at `pace_ms`, acting as soon as they see their turn
    (a read every 50 ms), `turns` times and on until the server has made `replies` moves whose
    wait can be read (how many a turn brings depends on the deal), or until `timeout`; the
    match's id."""
    view = create(client, "gandengyan", {**ENDLESS, "server_pace_ms": pace_ms},
                  bots(3, "normal"))
    deadline, played = time.monotonic() + timeout, 0

    def enough() -> bool:
        return played >= turns and (not replies or len(reply_waits(view["id"])) >= replies)

    while not enough() and time.monotonic() < deadline and view["status"] == "active":
        if view["your_turn"]:
            status, answer = client.post(f"/matches/{view['id']}/act/", {
                "expected_version": view["version"], "action": choose(view, rng)})
            assert status == 200, answer
            played += 1
        time.sleep(0.05)
        view = client.get(f"/matches/{view['id']}/")[1]
    assert enough(), f"{played} turns of {turns}, {replies} replies wanted, in {timeout} s"
    return view["id"]


def server_moves(match_id: int) -> int:
    return Move.objects.filter(match_id=match_id).exclude(actor=Move.Actor.HUMAN).count()


def reply_waits(match_id: int) -> list[float]:
    """Seconds each server move of the match came after its time (the previous write plus the
    pace after it, twice as long after a trick or a round), in order."""
    pace = Match.objects.get(pk=match_id).server_pace_ms / 1000
    written, kinds = {}, {}
    for version, at, kind in Event.objects.filter(match_id=match_id).values_list(
            "version", "created_at", "data__type"):
        written.setdefault(version, at)
        kinds.setdefault(version, set()).add(kind)
    people = set(Move.objects.filter(match_id=match_id, actor=Move.Actor.HUMAN)
                 .values_list("version", flat=True))
    server = sorted(set(Move.objects.filter(match_id=match_id).exclude(actor=Move.Actor.HUMAN)
                        .values_list("version", flat=True)) - people)
    return [(written[v] - written[v - 1]).total_seconds()
            - pace * (2 if kinds[v - 1] & PACE_BREAKS else 1)
            for v in server if v in written and v - 1 in written]  # (the match plays on)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (`share` 0..1) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]
