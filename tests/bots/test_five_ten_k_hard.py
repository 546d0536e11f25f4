"""510k `hard`: the partner's winning trick and the bids are never searched."""

import random

from bots.strategies import observe
from bots.strategies.five_ten_k import normal
from bots.strategies.five_ten_k import search as five_ten_k
from bots.strategies.search import Budget
from games.engine.actions import Bid, Pass
from games.engine.rulesets.five_ten_k.observation import observe as five_ten_k_observe
from tests.bots.support import decide, level
from tests.engine.five_ten_k_support import RULES, cards, playing

A = "JC QC JD QD 10C 10D"
EXACT = Budget(samples=12, ms=None)


def hard():
    return level(RULES, "hard", EXACT)


def test_never_bombs_over_the_partners_winning_trick():
    # A known blunder: 2222 over the partner's 7777 with 22 cards in hand, 75 times in 746
    # decisions. The partner's trick is never searched: only `normal`'s pass is a candidate.
    hand = "2S 2H 2D 2C 5S 5H 6D 6C 8S 8H 9D 9C JS JH QS QH AS AH KD 10S 10H 9S"
    state = playing(hand, A, "6S 5D", A, trick=[(1, "6H"), (2, "7S 7H 7D 7C")], to_act=0)
    seen = observe("510k", state, 0)
    assert five_ten_k.candidates(seen, random.Random(0)) == [Pass()]
    for seed in range(3):
        assert decide(hard(), RULES, state, random.Random(seed)) == Pass()


def test_never_bids_solo():
    # A known blunder: 包庄 on 12 of 32 hands, half of them lost.
    state = RULES.start_round(RULES.new_match(RULES.parse_options({}), [False] * 4), "bid")
    state, _ = RULES.apply(state, 0, RULES.legal_actions(state, 0)[0])
    seat = RULES.to_act(state)
    strong = cards("2S 2H 2D 2C AS AH AD AC KS KH KD KC KS 5H 6H 7H 8H 9H 10H JH QH QS")
    hands = list(state.round.hands)
    hands[seat] = tuple(sorted(strong))
    state = state._replace(round=state.round._replace(hands=tuple(hands)))
    assert decide(hard(), RULES, state) == Bid(False)


def test_the_rollouts_play_what_normal_plays_at_a_bots_turn():
    # The rollouts give normal what it reads straight from the state: at every step of whole
    # rounds (bids, the partner's tricks and points on the table included) it must choose what a
    # bot's turn chooses from the seat's whole observation.
    for seed, players in enumerate([4, 2, 4]):
        rng = random.Random(seed)
        state = RULES.start_round(RULES.new_match(RULES.parse_options(
            {"players": players}), [False] * players), f"rollout-{seed}")
        while not RULES.round_over(state):
            seat = RULES.to_act(state)
            if state.round.phase == "play":
                assert five_ten_k.policy(state, seat, rng) == normal.play(
                    five_ten_k_observe(state, seat))
            action = RULES.forced_action(state) or rng.choice(RULES.legal_actions(state, seat))
            state, _ = RULES.apply(state, seat, action)
