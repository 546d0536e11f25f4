"""Gandengyan `hard`: no bomb without a threat, and the sure wins `normal` sees are kept."""

import random

from bots.strategies.search import Budget
from tests.bots.support import decide, level
from tests.bots.test_gandengyan_normal import rest
from tests.engine.gandengyan_support import RULES, cards, playing

FAR = "3C 5C 7C 9C 10C"
AWAY = "3S 5S 7S 9S 10S"
OTHER = "4D 6D 8D QD KD"


def hard(state, seed: int = 0):
    return decide(level(RULES, "hard", Budget(samples=24, ms=None)), RULES, state,
                  random.Random(seed))


def test_no_bomb_early_without_a_threat():
    hand = "JS JH JD BJ 4C 8H"
    for seed in range(3):
        state = playing(hand, FAR, AWAY, OTHER, pile=rest(hand, FAR, AWAY, OTHER, "5H"),
                        table=[(3, "5H")])
        action = hard(state, seed)
        assert getattr(action, "reading", None) is None or action.reading.type != "bomb"


def test_the_two_and_joker_win_is_kept():
    # Every other card was played: no bomb can beat the 2, the draw pairs with the joker.
    state = playing("2H BJ", FAR, AWAY, OTHER, pile="8S 6S", table=[(3, "KS")])
    assert hard(state).cards == cards("2H")
