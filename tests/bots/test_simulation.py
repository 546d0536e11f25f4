"""The engine-level match runner, its statistics and `manage.py simulate` on tiny runs."""

import json
import multiprocessing
import random

import pytest
from django.core.management import CommandError, call_command

from bots.simulation import (
    Outcome,
    load,
    paired,
    percentile,
    play_round,
    simulate,
    summary,
    table,
    wilson,
)
from bots.strategies import strategies
from bots.strategies.five_ten_k.sides import partners
from bots.strategies.search import Budget
from games.engine.actions import Bid
from games.engine.registry import get_ruleset
from games.engine.rulesets.five_ten_k.observation import Observation


def cheap(ruleset: str) -> dict:
    return strategies(ruleset, Budget(ms=None, samples=1))


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_percentile_is_a_value_seen():
    values = list(range(1, 101))
    assert percentile(values, 0.99) == 99 and percentile(values, 0.5) == 50
    assert percentile([], 0.99) == 0.0


@pytest.mark.parametrize("seed", range(6))
def test_510k_partners_are_seated_on_one_side(seed):
    engine = get_ruleset("510k")
    state = engine.start_round(engine.new_match(engine.parse_options({}), [False] * 4), str(seed))
    def no_solo(strategy):
        return lambda seen, rng: Bid(False) if Bid(False) in seen.legal else strategy(seen, rng)

    never_solo = {name: no_solo(strategy) for name, strategy in cheap("510k").items()}
    final, levels, label = play_round(engine, state, ["hard", "random", "normal", "random"],
                                      never_solo, random.Random(seed), Outcome("510k", ()),
                                      partners, seed)
    state = final
    for team in state.round.teams:
        assert len({label[s] for s in team}) == 1
        names = {"A": {"hard", "normal"}, "B": {"random"}}[label[team[0]]]
        assert {levels[s] for s in team} == names
    holder_side = label[state.round.holder]
    assert holder_side == ("A" if seed % 2 == 0 else "B")


@pytest.mark.parametrize(
    ("ruleset", "seats", "rounds"),
    [("510k", ["normal", "random", "normal", "random"], 2), ("510k", ["hard", "normal"], 1),
     ("gandengyan", ["hard", "normal", "random", "random", "normal"], 2)],
)
def test_a_tiny_simulation(ruleset, seats, rounds):
    outcome = simulate(ruleset, seats, 2, "tiny", cheap(ruleset), rounds=rounds)
    assert len(outcome.rounds) == 2 * rounds
    assert all(sum(r["deltas"]) == 0 for r in outcome.rounds)
    report = summary(outcome)
    assert sum(row["won"] for row in report["results"]) == report["rounds"] == 2 * rounds
    assert set(report["decision_times"]) == set(seats)
    assert all(t["p99_ms"] <= t["max_ms"] for t in report["decision_times"].values())
    assert seats[0] in table(report)


def test_the_same_seed_deals_and_plays_the_same_without_a_clock():
    runs = [simulate("gandengyan", ["normal", "random", "random", "random"], 2, 7,
                     cheap("gandengyan"),
                     rounds=3).rounds for _ in range(2)]
    assert runs[0] == runs[1]
    other = simulate("gandengyan", ["normal", "random", "random", "random"], 2, 8,
                     cheap("gandengyan"),
                     rounds=3).rounds
    assert other != runs[0]


def test_the_command_prints_the_table_and_writes_json(tmp_path, capsys):
    out = tmp_path / "out.json"
    call_command("simulate", "--ruleset", "510k", "--players", "4",
                 "--seats", "normal,random,normal,random", "--matches", "2", "--rounds", "1",
                 "--seed", "5", "--json", str(out))
    captured = capsys.readouterr()
    assert "normal+normal" in captured.out and "95% CI" in captured.out
    assert "2/2 matches" in captured.err
    data = json.loads(out.read_text())
    assert data["rounds"] == 2 and len(data["per_round"]) == 2
    assert data["command"]["seats"] == "normal,random,normal,random"
    assert {row["side"] for row in data["results"]} == {"A", "B"}


def test_the_command_with_a_sample_budget_for_hard(capsys):
    call_command("simulate", "--ruleset", "gandengyan", "--players", "4",
                 "--seats", "hard,random,random,random", "--matches", "1", "--rounds", "1",
                 "--samples", "1", "--no-progress")
    assert "hard" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [["--seats", "normal,random"],  # 2 levels for 4 players
     ["--seats", "normal,random,genius,random"],
     ["--seats", "normal,random,normal,random", "--matches", "0"],
     ["--seats", "normal,random,normal,random", "--processes", "0"],
     ["--seats", "normal,random,normal,random", "--options", "{nope"],
     ["--seats", "normal,random,normal,random", "--options", '{"dry": "soaked"}']],
)
def test_the_command_refuses_bad_arguments(args):
    base = {"--matches": "1"}
    argv = ["--ruleset", "510k", "--players", "4", "--no-progress"]
    if "--matches" not in args:
        argv += ["--matches", base["--matches"]]
    with pytest.raises(CommandError):
        call_command("simulate", *argv, *args)


def test_each_seat_gets_its_own_observation():
    seen = []

    def spy(observation, rng: random.Random):
        seen.append(observation)
        return cheap("510k")["random"](observation, rng)

    simulate("510k", ["spy"] * 4, 1, 3, {"spy": spy}, rounds=1)
    assert seen and all(type(o) is Observation and o.seat == o.to_act for o in seen)


@pytest.mark.parametrize("ruleset", ["510k", "gandengyan"])
def test_greedy_is_a_level_for_simulations_but_not_for_seats(ruleset):
    from games.models import BOT_LEVELS

    levels = cheap(ruleset)
    assert {"random", "greedy", "normal", "hard"} <= set(levels)
    assert "greedy" not in BOT_LEVELS


def test_processes_play_the_same_matches():
    levels = cheap("510k")
    alone = simulate("510k", ["normal", "greedy"] * 2, 3, 7, levels, rounds=2)
    shared = simulate("510k", ["normal", "greedy"] * 2, 3, 7, levels, rounds=2, processes=2)
    assert shared.rounds == alone.rounds and len(alone.rounds) == 6
    assert {len(ms) for ms in shared.times.values()} == {len(ms) for ms in alone.times.values()}


def test_the_command_under_an_artificial_load(capsys):
    call_command("simulate", "--ruleset", "gandengyan", "--players", "4",
                 "--seats", "hard,normal,normal,normal", "--matches", "1", "--rounds", "1",
                 "--samples", "1", "--load", "1", "--no-progress")
    assert "hard" in capsys.readouterr().out


def test_an_artificial_load_burns_cpu_in_a_sibling_and_stops():
    import os
    import time

    with load(1):
        start = os.times()
        time.sleep(0.3)
        children = [p for p in multiprocessing.active_children()]
        assert children and all(p.is_alive() for p in children)
    assert all(not p.is_alive() for p in children)
    assert os.times().elapsed - start.elapsed >= 0.3


def test_two_runs_are_compared_on_the_deals_both_played(tmp_path, capsys):
    def run(winners):
        return [{"match": m, "round": 1, "sides": ["0", "1"], "winner": w}
                for m, w in enumerate(winners)]

    first, second = run("0011" + "0"), run("0101")  # the first played one deal more
    result = paired(first, second, "0")
    assert result["rounds"] == 4
    assert result["first"]["won"] == 2 and result["second"]["won"] == 2
    assert result["difference"] == 0.0 and result["difference_ci95"][0] < 0
    better = paired(run("0000"), run("0101"), "0")
    assert better["difference"] == 0.5
    paths = []
    for name, rounds in (("a", run("0000")), ("b", run("0101"))):
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps({"per_round": rounds}))
    call_command("simulate_paired", *map(str, paths))
    assert "difference: +50.0%" in capsys.readouterr().out
