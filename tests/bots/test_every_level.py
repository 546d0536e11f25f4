"""What holds for every level, over random positions of both rulesets: a play that empties the
hand is always taken; `greedy` never breaks a bomb."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.strategies import observe, strategies
from bots.strategies.going_out import going_out
from bots.strategies.search import Budget
from games.engine.actions import Play
from games.engine.cards import JOKER, RANK_OF
from games.engine.registry import get_ruleset
from games.engine.rulesets.five_ten_k import playout as five_ten_k_playout
from games.engine.rulesets.gandengyan import playout as gandengyan_playout
from games.engine.rulesets.gandengyan.state import sort_hand

SETUPS = [("510k", {"players": 4}), ("510k", {"players": 2}),
          ("gandengyan", {"players": 4, "decks": 1}), ("gandengyan", {"players": 5, "decks": 2})]
STEPS = {"510k": five_ten_k_playout.random_steps, "gandengyan": gandengyan_playout.random_steps}
LEVELS = ("random", "greedy", "normal", "hard")
BOMB = {"510k": 4, "gandengyan": 3}  # cards of one rank that make a bomb


def position(name: str, options: dict, seed: int, steps: int, keep: int | None):
    """A round played `steps` random actions in, the hand to act cut down to `keep` cards (the
    rest as if played already), so that going out is often possible; None if no choice is due."""
    engine = get_ruleset(name)
    state = engine.new_match(engine.parse_options(options), [False] * options["players"])
    state = STEPS[name](engine.start_round(state, f"level-{seed}"), random.Random(seed), steps)[0]
    rnd = state.round
    if engine.round_over(state) or (name == "510k" and rnd.phase != "play"):
        return None
    seat = rnd.to_act
    hand = rnd.hands[seat]
    if keep is not None and keep < len(hand):
        hand = tuple(random.Random(seed).sample(hand, keep))
        hand = sort_hand(hand) if name == "gandengyan" else tuple(sorted(hand))
        if all(RANK_OF[c] == JOKER for c in hand):
            return None
        hands = list(rnd.hands)
        hands[seat] = hand
        state = state._replace(round=rnd._replace(hands=tuple(hands)))
    if engine.forced_action(state) is not None:
        return None
    return engine, state


@settings(max_examples=400, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), steps=st.integers(0, 150),
       keep=st.one_of(st.none(), st.integers(1, 6)))
def test_every_level_goes_out_when_it_can(setup, seed, steps, keep):
    name, options = setup
    found = position(name, options, seed, steps, keep)
    if found is None:
        return
    engine, state = found
    seat = engine.to_act(state)
    seen = observe(name, state, seat)
    if going_out(seen.hand, seen.legal, engine.extra_candidates) is None:
        return
    levels = strategies(name, Budget(samples=2, ms=None))
    for level in LEVELS:
        action = levels[level](seen, random.Random(seed))
        assert isinstance(action, Play) and len(action.cards) == len(seen.hand), level
        engine.apply(state, seat, action)  # legal, extras included


def test_going_out_adds_every_card_left_as_extras():
    # KKK + AA on a free lead: the bots used to lead AA here.
    from tests.engine.five_ten_k_support import RULES, cards, playing

    state = playing("KH KC KD AH AC", "JC QC", "9S", "10D")
    seen = observe("510k", state, 0)
    out = going_out(seen.hand, seen.legal, RULES.extra_candidates)
    assert sorted(out.cards) == sorted(cards("KH KC KD AH AC"))
    RULES.apply(state, 0, out)


@settings(max_examples=150, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), steps=st.integers(0, 150))
def test_greedy_never_breaks_a_bomb(setup, seed, steps):
    name, options = setup
    found = position(name, options, seed, steps, None)
    if found is None:
        return
    engine, state = found
    seen = observe(name, state, engine.to_act(state))
    action = strategies(name)["greedy"](seen, random.Random(seed))
    if not isinstance(action, Play) or len(action.cards) == len(seen.hand):
        return  # a pass, or going out: nothing is kept to break
    held = [RANK_OF[c] for c in seen.hand]
    used = [RANK_OF[c] for c in action.cards]
    for rank in set(used) - {JOKER}:
        if held.count(rank) >= BOMB[name]:
            assert used.count(rank) == held.count(rank), (action, seen.hand)
