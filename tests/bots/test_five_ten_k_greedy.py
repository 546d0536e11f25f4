"""510k `greedy`, the reference yardstick: what it plays, and legal moves through whole rounds
(that it never breaks a bomb is checked with gandengyan's in test_greedy_bombs.py)."""

import random

import pytest

from bots.strategies.five_ten_k.greedy import choose as greedy
from games.engine.actions import Bid, Pass
from tests.bots.support import decide, play_round
from tests.engine.five_ten_k_support import RULES, cards, playing, ranks

A = "JC QC JD QD 10C 10D"
B = "JS QS JH QH 10S 10H"


def choice(state):
    return decide(greedy, RULES, state)


def test_leads_the_play_that_sheds_the_most_lowest_first():
    state = playing("5S 6H 7D 8C 9S 9H 9D 2H", A, B, A)
    assert ranks(choice(state).cards) == ranks(cards("5S 6H 7D 8C 9S"))


def test_goes_out_with_extras():
    # A known miss of the bots before: KKK + AA empties the hand.
    state = playing("KH KC KD AH AC", A, "9S", A)
    assert ranks(choice(state).cards) == ranks(cards("KH KC KD AH AC"))


def test_never_beats_the_partner():
    state = playing("2S AS 5D 6D 7C", A, B, A, trick=[(2, "KH")])
    assert choice(state) == Pass()


def test_answers_with_the_cheapest_plain_play():
    state = playing("2S AS 5D 6D 7C", A, B, A, trick=[(1, "KH")])
    assert ranks(choice(state).cards) == ranks(cards("AS"))


def test_a_bomb_only_against_an_opponent_close_to_going_out():
    far = playing("8S 8H 8D 8C 5D 6C 7C", A, B, A, trick=[(1, "KH KD")])
    assert choice(far) == Pass()
    close = playing("8S 8H 8D 8C 5D 6C 7C", "JC QC", B, A, trick=[(1, "KH KD")])
    assert choice(close).reading.type == "bomb"


def test_answers_around_a_bomb_rather_than_break_it():
    state = playing("8S 8H 8D 8C 9D", A, B, A, trick=[(1, "7H")])
    assert ranks(choice(state).cards) == ranks(cards("9D"))


def test_never_bids_solo():
    state = RULES.start_round(RULES.new_match(RULES.parse_options({}), [False] * 4), "g")
    state, _ = RULES.apply(state, 0, RULES.legal_actions(state, 0)[0])
    assert choice(state) == Bid(False)


@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("seed", range(3))
def test_every_choice_through_a_round_is_legal(players, seed):
    state = RULES.new_match(RULES.parse_options({"players": players}), [False] * players)
    state = RULES.start_round(state, f"greedy-{seed}")
    final, chosen = play_round(RULES, state, greedy, random.Random(seed))
    assert RULES.round_over(final) and chosen
