"""510k `greedy`, the reference floor: what it plays, and legal moves through whole rounds."""

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


def test_leads_the_longest_low_combination():
    state = playing("5S 6H 7D 8C 9S 9H 9D 2H", A, B, A)
    assert ranks(choice(state).cards) == ranks(cards("5S 6H 7D 8C 9S"))


def test_never_beats_the_partner():
    state = playing("2S AS 5D 6D 7C", A, B, A, trick=[(2, "KH")])
    assert choice(state) == Pass()


def test_takes_points_with_the_cheapest_plain_answer():
    state = playing("2S AS 5D 6D 7C", A, B, A, trick=[(1, "KH")])
    assert ranks(choice(state).cards) == ranks(cards("AS"))


@pytest.mark.parametrize(("trick", "bombs"), [("KH KD", True), ("9H 9D", False)])
def test_bombs_only_for_twenty_points(trick, bombs):
    state = playing("8S 8H 8D 8C 5D 6C 7C", A, B, A, trick=[(1, trick)])
    action = choice(state)
    assert action.reading.type == "bomb" if bombs else action == Pass()


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
