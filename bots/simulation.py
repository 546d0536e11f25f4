"""Bot-only matches played directly on the engine, and their statistics: what `manage.py simulate`
runs. Each bot gets exactly what it gets in the service (its seat's view and legal actions);
forced passes are applied for it, as the service does.

Sides. In gandengyan and two-player 510k every seat plays for itself. In four-player 510k the 明牌
makes the partnerships after the deal, so "a normal team against a random team" needs the
referee's help: the levels listed at seats 0 and 2 are side A, seats 1 and 3 side B, and once the
cut has fixed the partnerships the simulation seats side A on one of them and side B on the other
(the rules' own swap moves players too), alternating which side holds the 明牌 from round to
round. The cut itself is made by the level listed for the cutting seat. A solo (包庄) round is won
by the banker's side if the banker wins, else by the other side.
"""

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from games.engine.actions import Action
from games.engine.cards import PER_DECK
from games.engine.registry import get_ruleset

Strategy = Callable[[str, dict, list[Action], random.Random], Action]
Z95 = 1.959964


@dataclass
class Outcome:
    """Everything one simulation produced: per round, who played where and what it gave."""

    ruleset: str
    seats: tuple[str, ...]
    rounds: list[dict] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)  # ms per decision, per level

    def record_time(self, level: str, ms: float) -> None:
        self.times.setdefault(level, []).append(ms)


def _team_levels(seats: Sequence[str], state, round_index: int) -> tuple[list[str], dict]:
    """Four-player 510k after the cut: levels per seat so that side A (listed seats 0, 2) and side
    B (1, 3) are the round's partnerships; and the side label of every seat."""
    rnd = state.round
    holder, face_up = rnd.holder, rnd.face_up
    twin = (face_up + PER_DECK) % (2 * PER_DECK)
    twin_holder = next(s for s, hand in enumerate(rnd.hands) if twin in hand)
    seating = rnd.seating
    if twin_holder == holder:
        twin_holder = seating[(seating.index(holder) + 2) % 4]
    partners = (holder, twin_holder)
    others = tuple(s for s in seating if s not in partners)
    sides = (("A", (seats[0], seats[2])), ("B", (seats[1], seats[3])))
    if round_index % 2:
        sides = sides[::-1]
    levels = [""] * 4
    label = {}
    for (name, side_levels), group in zip(sides, (partners, others), strict=True):
        for seat, level in zip(group, side_levels, strict=True):
            levels[seat] = level
            label[seat] = name
    return levels, label


def _winner_label(result: dict, label: dict) -> str:
    summary = result["summary"]
    winners = summary["winner_seats"]
    banker = summary["banker"]
    if banker is not None and banker not in winners:
        # The defenders won: in four-player rounds they include the banker's partner.
        return next(label[s] for s in winners if label[s] != label[banker])
    return label[winners[0]]


def play_round(engine, state, seats: Sequence[str], strategies: Mapping[str, Strategy],
               rng: random.Random, outcome: Outcome, reseat=None):
    """Play the dealt round of `state` to its end. `reseat(state)`, once the cut is made, gives
    new levels per seat and side labels (four-player 510k). Returns the final state, the levels
    per seat and the side label of every seat."""
    levels = list(seats)
    label = {s: str(s) for s in range(len(seats))}
    name = engine.name
    while not engine.round_over(state):
        seat = engine.to_act(state)
        forced = engine.forced_action(state)
        if forced is not None:
            state, _ = engine.apply(state, seat, forced)
            continue
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        level = levels[seat]
        start = time.perf_counter()
        action = strategies[level](name, view, legal, rng)
        outcome.record_time(level, (time.perf_counter() - start) * 1000)
        state, _ = engine.apply(state, seat, action)
        if reseat is not None and view.get("phase") == "cut":
            levels, label = reseat(state)
    return state, levels, label


def simulate(
    ruleset: str,
    seats: Sequence[str],
    matches: int,
    seed: str | int,
    strategies: Mapping[str, Strategy],
    rounds: int | None = None,
    options: Mapping | None = None,
    progress: Callable[[int, Outcome], None] | None = None,
) -> Outcome:
    """Play `matches` bot-only matches; `rounds` caps the rounds of each (510k: its `rounds`
    option). Seeded: the same arguments deal the same cards (decisions under a time budget may
    still differ). `progress(matches done, outcome so far)` is called after every round."""
    engine = get_ruleset(ruleset)
    raw = dict(options or {})
    raw["players"] = len(seats)
    if ruleset == "510k" and rounds is not None:
        raw["rounds"] = rounds
    parsed = engine.parse_options(raw)
    teams = ruleset == "510k" and len(seats) == 4
    outcome = Outcome(ruleset, tuple(seats))
    for m in range(matches):
        state = engine.new_match(parsed, [False] * len(seats))
        number = 0
        while engine.needs_round(state) and (rounds is None or number < rounds):
            key = f"{seed}:{m}:{number}"
            state = engine.start_round(state, key)
            reseat = partial(_team_levels, seats, round_index=len(outcome.rounds))
            state, levels, label = play_round(engine, state, seats, strategies,
                                              random.Random(key), outcome,
                                              reseat if teams else None)
            result = engine.round_result(state)
            if ruleset == "510k":
                winner = _winner_label(result, label)
            else:
                winner = label[result["summary"]["winner"]]
            outcome.rounds.append({"match": m, "round": number + 1, "levels": list(levels),
                                   "sides": [label[s] for s in range(len(seats))],
                                   "deltas": list(result["deltas"]), "winner": winner})
            number += 1
            if progress is not None:
                progress(m, outcome)
        if progress is not None:
            progress(m + 1, outcome)
    return outcome


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
    """Rounds won per seat (per side in four-player 510k) with a 95% interval, mean points per
    round, and decision times per level."""
    rounds = outcome.rounds
    n = len(rounds)
    teams = outcome.ruleset == "510k" and len(outcome.seats) == 4
    if teams:
        units = [("A", f"{outcome.seats[0]}+{outcome.seats[2]}"),
                 ("B", f"{outcome.seats[1]}+{outcome.seats[3]}")]
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
                "p50_ms": percentile(ms, 0.5), "p99_ms": percentile(ms, 0.99), "max_ms": max(ms)}
        for level, ms in sorted(outcome.times.items())
    }
    return {"ruleset": outcome.ruleset, "seats": list(outcome.seats), "rounds": n,
            "results": rows, "decision_times": times}


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
                 f"{'max ms':>8}")
    for level, t in report["decision_times"].items():
        lines.append(f"{level:<8} {t['decisions']:>10} {t['mean_ms']:>9.2f} {t['p50_ms']:>8.2f} "
                     f"{t['p99_ms']:>8.2f} {t['max_ms']:>8.2f}")
    return "\n".join(lines)
