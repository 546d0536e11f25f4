"""Bot-only matches played directly on the engine, and their statistics: what `manage.py simulate`
runs. Each bot gets exactly what it gets in the service (its seat's observation, legal actions
included); forced passes are applied for it, as the service does.

Sides. Where every seat plays for itself, each seat is its own side. Where a deal makes
partnerships (four-player 510k: the 明牌 decides them after the cut), "a normal team against a
random team" needs the referee's help: the levels listed at even seats are side A, odd seats side
B, and as soon as the ruleset's bots say the deal has fixed the sides (`RulesetBots.sides`), the
simulation seats side A on the first and side B on the second, alternating from round to round
which side the deal favours (the 明牌's holder). The cut itself is made by the level listed for
the cutting seat. A round is won by the side most of its winners are on (a 包庄 banker who wins
alone: the banker's side; the three defenders: the side two of them are on).
"""

import math
import multiprocessing
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from bots.strategies import Strategy, observe, registered
from bots.strategies.going_out import going_out
from games.engine.actions import Play
from games.engine.registry import get_ruleset

Z95 = 1.959964


@dataclass
class Outcome:
    """Everything one simulation produced: per round, who played where and what it gave."""

    ruleset: str
    seats: tuple[str, ...]
    rounds: list[dict] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)  # ms per decision, per level
    cpu: dict[str, list[float]] = field(default_factory=dict)  # CPU ms per decision, per level
    # Per level, how often it made each fault (a play that empties the hand not taken, and the
    # ruleset's own: bots.strategies.RulesetBots.faults).
    faults: dict[str, Counter] = field(default_factory=dict)

    def record_time(self, level: str, ms: float, cpu_ms: float) -> None:
        self.times.setdefault(level, []).append(ms)
        self.cpu.setdefault(level, []).append(cpu_ms)

    def merge(self, part: "Outcome") -> None:
        self.rounds.extend(part.rounds)
        for level, ms in part.times.items():
            self.times.setdefault(level, []).extend(ms)
            self.cpu.setdefault(level, []).extend(part.cpu[level])
        for level, counted in part.faults.items():
            self.faults.setdefault(level, Counter()).update(counted)


def _reseat(seats: Sequence[str], sides: tuple[tuple[int, ...], ...],
            round_index: int) -> tuple[list[str], dict]:
    """Levels per seat so that the listed teams (A: even seats, B: odd) are the deal's sides, and
    the side label of every seat."""
    teams = [("A", seats[0::2]), ("B", seats[1::2])]
    if round_index % 2:
        teams.reverse()
    levels = [""] * len(seats)
    label = {}
    for (name, team_levels), group in zip(teams, sides, strict=True):
        for seat, level in zip(group, team_levels, strict=True):
            levels[seat] = level
            label[seat] = name
    return levels, label


def _missed_going_out(engine, seen, action) -> bool:
    if isinstance(action, Play) and len(action.cards) == len(seen.hand):
        return False
    return going_out(seen.hand, seen.legal, engine.extra_candidates) is not None


def _winner_label(winners: Sequence[int], label: dict) -> str:
    return Counter(label[s] for s in winners).most_common(1)[0][0]


def play_round(engine, state, seats: Sequence[str], strategies: Mapping[str, Strategy],
               rng: random.Random, outcome: Outcome, sides: Callable | None = None,
               round_index: int = 0, faults: Callable | None = None):
    """Play the dealt round of `state` to its end. With `sides` (team play), the levels are
    reseated once the deal fixes the sides; `faults(observation, action)` names the ruleset's
    faults an action makes, counted per level. Returns the final state, the levels per seat and
    the side label of every seat."""
    levels = list(seats)
    label = {s: str(s) for s in range(len(seats))}
    teams = None
    heard: list[dict] = []  # the round's events: what a bot's turn reads as stored
    while not engine.round_over(state):
        seat = engine.to_act(state)
        forced = engine.forced_action(state)
        if forced is not None:
            state, events = engine.apply(state, seat, forced)
            heard += events
            continue
        seen = observe(engine.name, engine.remember(state, heard, whole=True), seat)
        level = levels[seat]
        start, cpu = time.perf_counter(), time.thread_time()
        action = strategies[level](seen, rng)
        outcome.record_time(level, (time.perf_counter() - start) * 1000,
                            (time.thread_time() - cpu) * 1000)
        counted = outcome.faults.setdefault(level, Counter())
        if _missed_going_out(engine, seen, action):
            counted["going_out_missed"] += 1
        if faults is not None:
            counted.update(faults(seen, action))
        state, events = engine.apply(state, seat, action)
        heard += events
        if sides is not None and teams is None and (teams := sides(state)) is not None:
            levels, label = _reseat(seats, teams, round_index)
    return state, levels, label


def _play_match(engine, parsed, seats: Sequence[str], m: int, seed: str | int,
                strategies: Mapping[str, Strategy], rounds: int | None, sides,
                faults) -> Outcome:
    """Match number `m`, its rounds seeded from (`seed`, m, round): the same whatever process
    plays it. Which side the deal favours alternates with m + round."""
    outcome = Outcome(engine.name, tuple(seats))
    state = engine.new_match(parsed, [False] * len(seats))
    number = 0
    while engine.table(state).needs_round and (rounds is None or number < rounds):
        key = f"{seed}:{m}:{number}"
        state = engine.start_round(state, key)
        state, levels, label = play_round(engine, state, seats, strategies, random.Random(key),
                                          outcome, sides, m + number, faults)
        result = engine.round_result(state)
        outcome.rounds.append({"match": m, "round": number + 1, "levels": list(levels),
                               "sides": [label[s] for s in range(len(seats))],
                               "deltas": list(result["deltas"]),
                               "winner": _winner_label(result["winners"], label)})
        number += 1
    return outcome


# What a worker process plays with: set before the pool forks, so nothing is pickled but numbers.
_WORK: dict = {}


def _work(m: int) -> Outcome:
    return _play_match(m=m, **_WORK)


def simulate(
    ruleset: str,
    seats: Sequence[str],
    matches: int,
    seed: str | int,
    strategies: Mapping[str, Strategy],
    rounds: int | None = None,
    options: Mapping | None = None,
    progress: Callable[[int, Outcome], None] | None = None,
    processes: int = 1,
) -> Outcome:
    """Play `matches` bot-only matches; `rounds` caps the rounds of each (also its `rounds`
    option where the ruleset has one). Seeded: the same arguments deal the same cards (decisions
    under a time cap may still differ), whatever the number of `processes` playing the matches
    side by side. `progress(matches done, outcome so far)` is called after every match."""
    engine = get_ruleset(ruleset)
    raw = dict(options or {})
    raw["players"] = len(seats)
    if rounds is not None and "rounds" in engine.info.options.fields:
        raw["rounds"] = rounds
    bots = registered().get(ruleset)
    work = {"engine": engine, "parsed": engine.parse_options(raw), "seats": tuple(seats),
            "seed": seed, "strategies": strategies, "rounds": rounds,
            "sides": bots.sides if bots is not None else None,
            "faults": bots.faults if bots is not None else None}
    outcome = Outcome(ruleset, tuple(seats))

    def merge(done: int, part: Outcome) -> None:
        outcome.merge(part)
        if progress is not None:
            progress(done, outcome)

    if processes <= 1:
        for m in range(matches):
            merge(m + 1, _play_match(m=m, **work))
        return outcome
    _WORK.update(work)
    try:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            for done, part in enumerate(pool.imap_unordered(_work, range(matches)), 1):
                merge(done, part)
    finally:
        _WORK.clear()
    outcome.rounds.sort(key=lambda r: (r["match"], r["round"]))
    return outcome


def _burn() -> None:
    while True:
        pass


@contextmanager
def load(processes: int):
    """`processes` sibling processes burning CPU while the block runs: an artificial load, to
    show that a level plays as strongly on a busy machine (its budget is samples and CPU time)."""
    burners = [multiprocessing.get_context("fork").Process(target=_burn, daemon=True)
               for _ in range(processes)]
    for burner in burners:
        burner.start()
    try:
        yield
    finally:
        for burner in burners:
            burner.terminate()
            burner.join()


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + Z95 * Z95 / n
    centre = (p + Z95 * Z95 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def summary(outcome: Outcome) -> dict:
    """Rounds won per seat (per side A/B in team play) with a 95% interval, mean points per
    round, decision times per level (wall and CPU) and its faults per 1,000 decisions."""
    rounds = outcome.rounds
    n = len(rounds)
    teams = bool(rounds) and rounds[0]["sides"][0] in ("A", "B")  # the referee made sides
    if teams:
        units = [("A", "+".join(outcome.seats[0::2])), ("B", "+".join(outcome.seats[1::2]))]
    else:
        units = [(str(s), level) for s, level in enumerate(outcome.seats)]
    rows = []
    for name, levels in units:
        wins = sum(1 for r in rounds if r["winner"] == name)
        points = [sum(d for d, side in zip(r["deltas"], r["sides"], strict=True) if side == name)
                  for r in rounds]
        low, high = wilson(wins, n)
        mean = statistics.fmean(points) if points else 0.0
        spread = Z95 * statistics.stdev(points) / math.sqrt(n) if n > 1 else 0.0
        rows.append({"side" if teams else "seat": name, "levels": levels, "rounds": n,
                     "won": wins, "rate": wins / n if n else 0.0, "ci95": [low, high],
                     "mean_points": mean, "mean_points_ci95": [mean - spread, mean + spread]})
    times = {
        level: {"decisions": len(ms), "mean_ms": statistics.fmean(ms),
                "p50_ms": percentile(ms, 0.5), "p99_ms": percentile(ms, 0.99), "max_ms": max(ms),
                "cpu_mean_ms": statistics.fmean(cpu := outcome.cpu[level]),
                "cpu_p99_ms": percentile(cpu, 0.99)}
        for level, ms in sorted(outcome.times.items())
    }
    faults = {level: {name: {"count": count, "per_1000": 1000 * count / len(outcome.times[level])}
                      for name, count in sorted(counted.items())}
              for level, counted in sorted(outcome.faults.items()) if counted}
    return {"ruleset": outcome.ruleset, "seats": list(outcome.seats), "rounds": n,
            "results": rows, "decision_times": times, "faults": faults}


def table(report: dict) -> str:
    """The summary as fixed-width text."""
    key = "side" if report["results"] and "side" in report["results"][0] else "seat"
    lines = [f"{report['ruleset']}: {report['rounds']} rounds, seats {','.join(report['seats'])}",
             f"{key:<5} {'levels':<16} {'won':>6} {'rate':>7} {'95% CI':>17} {'points/round':>22}"]
    for row in report["results"]:
        low, high = row["ci95"]
        plow, phigh = row["mean_points_ci95"]
        points = f"{row['mean_points']:+.2f} ({plow:+.2f}..{phigh:+.2f})"
        lines.append(f"{row[key]:<5} {row['levels']:<16} {row['won']:>6} {row['rate']:>7.1%} "
                     f"{f'{low:.1%}–{high:.1%}':>17} "
                     f"{points:>22}")
    lines.append(f"{'level':<8} {'decisions':>10} {'mean ms':>9} {'p50 ms':>8} {'p99 ms':>8} "
                 f"{'max ms':>8} {'CPU mean':>9} {'CPU p99':>8}")
    for level, t in report["decision_times"].items():
        lines.append(f"{level:<8} {t['decisions']:>10} {t['mean_ms']:>9.2f} {t['p50_ms']:>8.2f} "
                     f"{t['p99_ms']:>8.2f} {t['max_ms']:>8.2f} {t['cpu_mean_ms']:>9.2f} "
                     f"{t['cpu_p99_ms']:>8.2f}")
    for level, counted in report["faults"].items():
        named = ", ".join(f"{name} {f['count']} ({f['per_1000']:.2f}/1000)"
                          for name, f in counted.items())
        lines.append(f"faults of {level}: {named}")
    return "\n".join(lines)


def paired(first: Sequence[dict], second: Sequence[dict], unit: str) -> dict:
    """Two simulations' rounds (their JSON's `per_round`) compared on the rounds both played
    (same match and round number: the same deal): how often `unit` (a seat number or a side)
    won in each, and the mean of the per-round difference with its 95 % interval. Playing the
    same deals, the difference is far less noisy than either rate."""
    theirs = {(r["match"], r["round"]): r["winner"] == unit for r in second}
    pairs = [(r["winner"] == unit, theirs[key]) for r in first
             if (key := (r["match"], r["round"])) in theirs]
    n = len(pairs)
    diffs = [a - b for a, b in pairs]
    mean = statistics.fmean(diffs) if n else 0.0
    spread = Z95 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else 0.0
    rates = []
    for side in (0, 1):
        wins = sum(p[side] for p in pairs)
        rates.append({"won": wins, "rate": wins / n if n else 0.0, "ci95": list(wilson(wins, n))})
    return {"rounds": n, "first": rates[0], "second": rates[1], "difference": mean,
            "difference_ci95": [mean - spread, mean + spread]}
