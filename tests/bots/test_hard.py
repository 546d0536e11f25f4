"""The hard bot: samples that the seat cannot tell from the truth, a search that keeps to its
budget and picks the best mean, and legal moves through whole rounds."""

import gc
import itertools
import random
import time
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.strategies import Basic, observe
from bots.strategies.five_ten_k import search as five_ten_k_search
from bots.strategies.search import PRUNE_AFTER, Budget, Deadline, Game, search
from games.engine.actions import Bid, Cut, Pass, Play
from games.engine.registry import get_ruleset
from games.engine.rulesets.five_ten_k.sampling import sample_state as sample_510k
from games.engine.rulesets.gandengyan.sampling import sample_state as sample_gandengyan
from tests.bots.support import decide, level, play_round

SAMPLERS = {"510k": sample_510k, "gandengyan": sample_gandengyan}
SETUPS = [("510k", {"players": 4}), ("510k", {"players": 2}),
          ("gandengyan", {"players": 4, "decks": 1}), ("gandengyan", {"players": 6, "decks": 2})]


def midround(name: str, options: dict, seed: int, steps: int):
    """A round played `steps` decisions in by `normal`, forced passes applied."""
    engine = get_ruleset(name)
    players = options["players"]
    state = engine.start_round(engine.new_match(engine.parse_options(options), [False] * players),
                               f"mid-{seed}")
    rng = random.Random(seed)
    for _ in range(steps):
        if engine.round_over(state):
            break
        seat = engine.to_act(state)
        action = engine.forced_action(state) or decide(level(engine, "normal"), engine, state,
                                                       rng)
        state, _ = engine.apply(state, seat, action)
    return engine, state


@settings(max_examples=25, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), steps=st.integers(2, 60))
def test_a_sample_looks_exactly_like_the_truth_to_the_seat(setup, seed, steps):
    name, options = setup
    engine, state = midround(name, options, seed, steps)
    if engine.round_over(state):
        return
    seat = engine.to_act(state)
    seen = observe(name, state, seat)
    sample = SAMPLERS[name](seen, random.Random(seed))
    assert observe(name, sample, seat) == seen
    assert engine.view(sample, seat) == engine.view(state, seat)


def test_samples_deal_the_unseen_cards_differently_and_keep_the_face_up_card():
    engine, state = midround("510k", {"players": 4}, seed=3, steps=10)
    seen = observe("510k", state, engine.to_act(state))
    samples = [sample_510k(seen, random.Random(k)) for k in range(5)]
    assert len({s.round.hands for s in samples}) > 1
    card, holder = seen.face_up, seen.holder
    if holder != seen.seat and card not in seen.played:
        assert all(card in s.round.hands[holder] for s in samples)


def test_a_forfeited_seat_is_sampled_with_jokers_only():
    from tests.engine.gandengyan_support import playing

    state = playing("5H 6H 7H", "SJ", "3C 5C 7C 9C", "3S 5S 7S", pile="8D 9D")
    state = state._replace(round=state.round._replace(forfeited=(False, True, False, False)))
    sample = sample_gandengyan(observe("gandengyan", state, 0), random.Random(1))
    assert len(sample.round.hands[1]) == 1 and sample.round.hands[1][0] in (52, 53)


class Stub:
    """A one-step game: applying an action ends the round; its value is looked up."""

    name = "stub"

    def __init__(self, values):
        self.values = values
        self.applied = []

    def step(self, state, seat, action):
        self.applied.append(action)
        return action

    def round_over(self, state):
        return True


def stub_game(values: dict, margin: float = 0.0, calls: list | None = None) -> Game:
    def sample(seen, rng):
        if calls is not None:
            calls.append(1)
        return None

    return Game(engine=Stub(values), sample=sample, policy=None,
                value=lambda action, seat: values[action],
                candidates=lambda seen, rng: list(seen.legal), margin=margin)


def seat_0(*legal) -> Basic:
    return Basic(0, legal)


def test_the_best_mean_wins_and_the_heuristic_keeps_close_calls():
    seen = seat_0(Pass(), Bid(True), Bid(False))
    values = {Pass(): 0.0, Bid(True): 1.0, Bid(False): 0.5}
    assert search(stub_game(values), seen, random.Random(), Budget(samples=3)) == Bid(True)
    close = stub_game(values, margin=1.0)
    assert search(close, seen, random.Random(), Budget(samples=3)) == Pass()


def test_the_sample_budget_is_kept_and_one_candidate_needs_no_search():
    calls: list = []
    game = stub_game({Pass(): 0.0, Cut(): 1.0}, calls=calls)
    search(game, seat_0(Pass(), Cut()), random.Random(), Budget(ms=None, samples=7))
    assert len(calls) == 7
    calls.clear()
    assert search(game, seat_0(Cut()), random.Random(), Budget(samples=7)) == Cut()
    assert calls == []


def test_a_budget_that_names_no_samples_takes_the_games_number_for_the_observation():
    calls: list = []
    game = replace(stub_game({Pass(): 0.0, Cut(): 1.0}, calls=calls),
                   samples=lambda seen: 5 if seen.seat == 0 else 9)
    search(game, seat_0(Pass(), Cut()), random.Random(), Budget(ms=None))
    assert len(calls) == 5
    calls.clear()
    search(game, Basic(1, (Pass(), Cut())), random.Random(), Budget(ms=None))
    assert len(calls) == 9


def test_two_player_510k_searches_with_more_samples_than_four_players():
    for players, expected in ((2, five_ten_k_search.TWO_PLAYER_SAMPLES),
                              (4, five_ten_k_search.SAMPLES)):
        engine, state = midround("510k", {"players": players}, 1, 0)
        seen = observe("510k", state, engine.to_act(state))
        assert five_ten_k_search.samples(seen) == expected


def test_a_time_budget_stops_the_search():
    game = replace(stub_game({Pass(): 0.0, Cut(): 1.0}))
    budget = Budget(samples=10**9, ms=5)  # the cap ends it, long before the samples
    action = search(game, seat_0(Pass(), Cut()), random.Random(), budget)
    assert action == Cut()


@pytest.mark.parametrize(("name", "options"), SETUPS)
def test_hard_plays_legal_moves_through_a_round(name, options):
    engine = get_ruleset(name)
    players = options["players"]
    state = engine.start_round(engine.new_match(engine.parse_options(options), [False] * players),
                               "hard-round")
    hard = level(engine, "hard", Budget(ms=None, samples=2))
    final, chosen = play_round(engine, state, hard, random.Random(1))
    assert engine.round_over(final)
    assert any(isinstance(a, Play) for a in chosen)


def test_the_collector_waits_for_the_decision_and_is_left_as_it_was_found():
    during = []
    game = replace(stub_game({Pass(): 0.0, Cut(): 1.0}),
                   value=lambda action, seat: during.append(gc.isenabled()) or 0.0)
    assert gc.isenabled()
    search(game, seat_0(Pass(), Cut()), random.Random(), Budget(ms=None, samples=2))
    assert during == [False] * 4 and gc.isenabled()
    gc.disable()
    try:
        search(game, seat_0(Pass(), Cut()), random.Random(), Budget(ms=None, samples=2))
        assert not gc.isenabled()
    finally:
        gc.enable()
    broken = replace(game, sample=lambda seen, rng: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        search(broken, seat_0(Pass(), Cut()), random.Random(), Budget(ms=None, samples=2))
    assert gc.isenabled()


def test_candidates_clearly_behind_are_dropped_and_the_heuristic_is_kept():
    rng = random.Random(5)
    means = {Pass(): 0.0, Bid(True): 0.0, Bid(False): -1.0}
    game = replace(stub_game(means), value=lambda action, seat: means[action] + rng.random() / 10)
    search(game, seat_0(*means), rng, Budget(ms=None, samples=30))
    applied = game.engine.applied
    assert applied.count(Bid(False)) == PRUNE_AFTER
    assert applied.count(Pass()) == applied.count(Bid(True)) == 30


def test_a_lead_within_the_noise_does_not_overturn_the_heuristic():
    swings = itertools.cycle([0.5, -0.5])  # Cut: 0.05 better on average, give or take 0.5

    def value(action, seat):
        return 0.0 if action == Pass() else 0.05 + next(swings)

    game = replace(stub_game({}), value=value)
    budget = Budget(ms=None, samples=20)
    assert search(game, seat_0(Pass(), Cut()), random.Random(), budget) == Cut()
    sure = replace(game, confidence=1.0)  # 0.05 is under one standard error (0.5 / √20)
    assert search(sure, seat_0(Pass(), Cut()), random.Random(), budget) == Pass()


def test_the_wall_clock_net_can_be_left_out_for_measurements():
    netted, cpu_only = Deadline(ms=2), Deadline(ms=2, wall=None)
    time.sleep(0.05)  # 50 ms of wall time, next to no CPU time
    assert netted.passed() and not cpu_only.passed()


def test_no_sample_is_drawn_that_would_overrun_the_cap():
    calls: list = []

    def slow_sample(seen, rng):  # 30 ms of CPU, with no rollout to look at the clock
        calls.append(1)
        end = time.thread_time() + 0.03
        while time.thread_time() < end:
            pass

    game = replace(stub_game({Pass(): 0.0, Cut(): 0.0}), sample=slow_sample)
    started = time.thread_time()
    search(game, seat_0(Pass(), Cut()), random.Random(), Budget(samples=100, ms=50, wall=None))
    assert calls == [1]  # a second would end at 60 ms
    assert time.thread_time() - started < 0.05
