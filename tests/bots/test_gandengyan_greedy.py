"""Gandengyan `greedy`, the reference yardstick: its few rules (its moves through whole rounds are
checked beside `normal`'s, in test_gandengyan_normal.py; that it never breaks a bomb, in
test_greedy_bombs.py)."""

from bots.strategies.gandengyan.greedy import choose as greedy
from games.engine.actions import Pass
from tests.bots.support import decide
from tests.engine.gandengyan_support import RULES, cards, playing, ranks

FAR = "3C 5C 7C 9C JC"
AWAY = "3S 5S 7S 9S JS"


def choice(state):
    return decide(greedy, RULES, state)


def test_leads_the_longest_play_lowest_first():
    state = playing("4H 5D 6S 9D 9H KD", "4C 6C 8C 10C QC", FAR, AWAY)
    assert ranks(choice(state).cards) == ranks(cards("4H 5D 6S"))


def test_leads_around_the_twos():
    state = playing("2H 2D 8S KD", "4C 6C 8C 10C QC", FAR, AWAY)
    assert ranks(choice(state).cards) == ranks(cards("8S"))


def test_answers_with_the_cheapest_beating_play():
    state = playing("10H 2S 5H 7D", "4C 6C 8C 10C QC", FAR, AWAY, table=[(3, "9H")])
    assert ranks(choice(state).cards) == ranks(cards("10H"))
    two = playing("2S 5H 7D 8D", "4C 6C 8C 10C QC", FAR, AWAY, table=[(3, "9H")])
    assert ranks(choice(two).cards) == ranks(cards("2S"))


def test_bombs_only_when_an_opponent_is_nearly_out():
    calm = playing("8S 8H 8D 5D 6C", "3D 4D 6D 9D 10D", FAR, AWAY, table=[(1, "2C")])
    assert choice(calm) == Pass()
    urgent = playing("8S 8H 8D 5D 6C", "3D 4D", FAR, AWAY, table=[(1, "2C")])
    assert choice(urgent).reading.type == "bomb"


def test_passes_rather_than_break_a_bomb():
    # Only an 8 answers the 7 (the +1 rule), and the 8s are a bomb.
    state = playing("8S 8H 8D 9D 5H", "3D 4D 6D QD 10D", FAR, AWAY, table=[(1, "7D")])
    assert choice(state) == Pass()


def test_goes_out_with_a_bomb_rather_than_a_plain_play():
    state = playing("6S 6H SJ", "3D 4D 6D QD 10D", FAR, AWAY)
    assert choice(state).reading.type == "bomb"


def test_never_leaves_a_hand_of_jokers_only():
    state = playing("5H SJ", "3D 4D 6D 9D 10D", FAR, AWAY, table=[(1, "4S")])
    assert choice(state) == Pass()
