"""Gandengyan invariants over seeded random playouts: listed actions are accepted, sets outside the
listing are refused, cards are conserved, scores sum to zero, views hide what they must, replay
rebuilds the exact state, and whole matches of every size finish."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.actions import Pass, Play
from games.engine.cards import make_pack
from games.engine.errors import IllegalAction
from games.engine.replay import replay
from games.engine.rulesets.gandengyan.playout import random_match, random_steps
from tests.engine.gandengyan_support import RULES, ranks

CONFIGS = [(players, decks) for players in (4, 5, 6) for decks in (1, 2)]


def dealt(players: int, decks: int, seed: int):
    match = RULES.new_match({"players": players, "decks": decks}, [False] * players)
    return RULES.start_round(match, f"prop-{seed}")


def check_consistent(before, seat, action, after, events) -> None:
    old, new = before.round, after.round
    drawn = [e["seat"] for e in events if e["type"] == "draw"]
    assert len(old.pile) - len(new.pile) == len(drawn)
    if isinstance(action, Pass):
        assert events[0] == {"type": "pass", "seat": seat}
        assert new.hands[seat] == old.hands[seat]
        return
    assert events[0]["type"] == "play" and events[0]["reading"] == action.reading.to_dict()
    assert sorted(c["id"] for c in events[0]["cards"]) == sorted(action.cards)
    kept = set(old.hands[seat]) - set(action.cards)
    assert kept <= set(new.hands[seat]) and len(new.hands[seat]) == len(kept) + drawn.count(seat)
    assert new.played_any[seat]
    assert new.bombs == old.bombs + ((action.reading.length,) if action.reading.type == "bomb"
                                     else ())
    if new.winner is None and new.trick:
        assert new.trick[-1].seat == seat and set(new.trick[-1].cards) == set(action.cards)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(CONFIGS), st.integers(0, 10**6), st.integers(0, 70))
def test_every_listed_action_is_accepted(config, seed, steps):
    state, _ = random_steps(dealt(*config, seed), random.Random(seed), steps)
    seat = RULES.to_act(state)
    if seat is None:
        return
    listed = RULES.legal_actions(state, seat)
    assert listed and all(RULES.legal_actions(state, other) == []
                          for other in range(config[0]) if other != seat)
    assert (Pass() in listed) == bool(state.round.trick)
    for action in listed:
        after, events = RULES.apply(state, seat, action)
        check_consistent(state, seat, action, after, events)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(CONFIGS), st.integers(0, 10**6), st.integers(0, 70), st.randoms())
def test_sets_outside_the_listing_are_refused(config, seed, steps, pick):
    state, _ = random_steps(dealt(*config, seed), random.Random(seed), steps)
    seat = RULES.to_act(state)
    if seat is None:
        return
    hand = state.round.hands[seat]
    by_ranks = Counter(ranks(p.cards) for p in RULES.legal_actions(state, seat)
                       if isinstance(p, Play))
    for _ in range(30):
        subset = tuple(pick.sample(hand, pick.randint(1, len(hand))))
        listed = by_ranks[ranks(subset)]
        try:
            RULES.apply(state, seat, Play(subset))
        except IllegalAction as err:
            if listed == 0:
                assert err.code in ("not_a_combination", "does_not_beat")
            else:
                assert err.code == "ambiguous_play" and len(err.details["readings"]) == listed
        else:
            assert listed == 1


def view_ids(view) -> set[int]:
    """Every card id a view shows, wherever it sits."""
    found = set()
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "id" in item and "code" in item:
                found.add(item["id"])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(CONFIGS), st.integers(0, 10**6))
def test_a_round_conserves_cards_and_views_hide_the_rest(config, seed):
    players, decks = config
    state = dealt(players, decks, seed)
    rng = random.Random(seed)
    played: list[int] = []
    pack = sorted(make_pack(decks))
    while not RULES.round_over(state):
        rnd = state.round
        for seat in (None, *range(players)):
            hidden = set(rnd.pile).union(*(h for s, h in enumerate(rnd.hands) if s != seat))
            assert not view_ids(RULES.view(state, seat)) & hidden
        seat = rnd.to_act
        state, events = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
        played += [c["id"] for e in events if e["type"] == "play" for c in e["cards"]]
        held = [c for hand in state.round.hands for c in hand]
        assert sorted(held + list(state.round.pile) + played) == pack
    assert sum(RULES.round_result(state)["deltas"]) == 0


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(CONFIGS), st.integers(0, 10**6), st.integers(5, 40))
def test_replay_rebuilds_the_exact_state(config, seed, starting_score):
    players, decks = config
    options = {"players": players, "decks": decks, "starting_score": starting_score}
    humans = [True] + [False] * (players - 1)
    final, seeds, moves = random_match(options, humans, f"replay-{seed}")
    rebuilt = replay(RULES, options, humans, seeds, moves)
    # Playouts keep no log (nobody views them); replay keeps the service's tail of it.
    assert rebuilt._replace(round=rebuilt.round._replace(log=final.round.log)) == final
    assert RULES.from_json(RULES.to_json(final)) == final
    number, seat, action = moves[len(moves) // 2]
    rebuilt = replay(RULES, options, humans, seeds[:number], moves[:len(moves) // 2])
    assert rebuilt.round.number == number and RULES.to_act(rebuilt) == seat
    assert action in RULES.legal_actions(rebuilt, seat)


@pytest.mark.parametrize(("players", "decks"), CONFIGS)
def test_whole_matches_of_every_size_finish(players, decks):
    for n in range(4):
        options = {"players": players, "decks": decks, "starting_score": 15}
        state, seeds, _ = random_match(options, [False] * players, f"match-{players}-{decks}-{n}")
        assert RULES.table(state).match_over and not RULES.table(state).needs_round
        assert sum(state.scores) == 15 * players
        assert sum(not out for out in state.eliminated) <= 3
        assert all((score <= 0) == out for score, out in zip(state.scores, state.eliminated,
                                                             strict=True))
        standings = RULES.standings(state)
        assert [s["score"] for s in standings] == sorted(state.scores, reverse=True)
        assert len(seeds) == state.round.number
