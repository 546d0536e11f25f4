"""Gandengyan `normal`: table-driven situations from the rules page, and legal moves through
whole rounds (`greedy`'s too)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.strategies.gandengyan.greedy import choose as greedy
from bots.strategies.gandengyan.normal import choose as normal
from bots.strategies.gandengyan.normal import recalled
from games.engine.actions import Pass
from games.engine.cards import JOKER, RANK_INDEX, RANK_OF, code, make_pack
from games.engine.rulesets.gandengyan.combos import rank_counts, readings_of_counts
from games.engine.rulesets.gandengyan.observation import observe
from games.engine.rulesets.gandengyan.state import Logged
from tests.bots.support import decide, play_round
from tests.engine.gandengyan_support import RULES, cards, playing, ranks

# Seats far from going out (one deck: every code once).
FAR = "3C 5C 7C 9C JC"
AWAY = "3S 5S 7S 9S JS"


def choice(state):
    return decide(normal, RULES, state)


def test_plays_out_when_it_can():
    state = playing("5H 5D", "4C 6C 8C 10C QC", FAR, AWAY, table=[(3, "4S 4D")])
    assert ranks(choice(state).cards) == ranks(cards("5H 5D"))


def test_a_joker_makes_the_longest_straight_on_a_lead():
    state = playing("3H 4D 6S SJ KD QH", "4C 6C 8C 10C QC", FAR, AWAY)
    action = choice(state)
    assert action.reading.type == "straight" and action.reading.length == 4
    assert any(RANK_OF[c] == JOKER for c in action.cards)


def test_never_leaves_a_hand_of_jokers_only():
    state = playing("5H SJ", "3D 4D 6D 9D 10D", FAR, AWAY, table=[(1, "4S")])
    assert choice(state) == Pass()


def test_answers_one_higher_and_keeps_the_two():
    state = playing("10H 2S 5H 7D", "4C 6C 8C 10C QC", FAR, AWAY, table=[(3, "9H")])
    assert ranks(choice(state).cards) == ranks(cards("10H"))


def test_a_two_against_a_seat_about_to_go_out():
    urgent = playing("2S 5D 7D 8H", "3D", FAR, AWAY, table=[(1, "QS")])
    assert ranks(choice(urgent).cards) == ranks(cards("2S"))


def test_takes_the_sure_win_of_a_two_and_a_joker():
    # The 2 stands (only a bomb beats it, and no bomb can be made of the cards still out), the
    # draw pairs with the joker, the pair goes out.
    state = playing("2H BJ", "4D 6D 8D QD KD", FAR, AWAY, pile="8S 6S", table=[(3, "KS")])
    assert choice(state).cards == cards("2H")


def rest(*hands: str) -> str:
    """Every card of one pack not in `hands`: a pile that leaves every other card still out."""
    used = set(" ".join(hands).split())
    return " ".join(c for c in (code(i) for i in make_pack(1)) if c not in used)


def test_no_single_led_into_a_seat_holding_one_card():
    for hand in ("3H KD KH", "4H AS AD", "6H QD QH 8S"):
        state = playing(hand, "10C", FAR, AWAY, pile=rest(hand, "10C", FAR, AWAY))
        assert choice(state).reading.type == "pair", hand


def test_a_bomb_only_when_it_matters():
    calm = playing("8S 8H 8D 5D 6C", "3D 4D 6D 9D 10D", FAR, AWAY, table=[(1, "2C")])
    assert choice(calm) == Pass()
    urgent = playing("8S 8H 8D 5D 6C", "3D 4D", FAR, AWAY, table=[(1, "2C")])
    assert choice(urgent).reading.type == "bomb"


@pytest.mark.parametrize("policy", [normal, greedy], ids=["normal", "greedy"])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([4, 5, 6]),
       decks=st.sampled_from([1, 2]))
def test_every_choice_through_a_round_is_legal(policy, seed, players, decks):
    state = RULES.new_match(RULES.parse_options({"players": players, "decks": decks}),
                            [False] * players)
    state = RULES.start_round(state, f"policy-{seed}")
    final, chosen = play_round(RULES, state, policy, random.Random(seed))
    assert RULES.round_over(final) and chosen


def test_plays_on_when_one_card_is_still_out():
    # The pile is empty and every other card was played: a pair cannot be beaten, and the lead
    # that keeps the pair for last is found without dividing by the one card out.
    state = playing("5H 5D 9H", "KC", "", "", eliminated=(False, False, True, True))
    assert ranks(choice(state).cards) in (ranks(cards("5H 5D")), ranks(cards("9H")))


@pytest.mark.parametrize("hand, kept", [
    ("3H 9H 9D BJ", "9H 9D BJ"),  # a bomb: it answers anything, so it goes out next turn
    ("8H 2S 2H BJ", "2S 2H"),  # a pair of 2s (a bomb with the joker) answers nearly anything
    ("3H 7D", "7D"),  # a 3 kept for last answers nothing: it would never be played
])
def test_the_last_combination_kept_is_one_that_can_answer(hand, kept):
    state = playing(hand, "4C 6C 8C 10C QC", FAR, AWAY)
    assert not set(choice(state).cards) & set(cards(kept))


def test_a_last_card_played_when_the_joker_left_would_pair_with_the_draw():
    # 7H on the 6: if it stands, the card drawn pairs with the joker and goes out next lead;
    # a pass keeps a 7 and a joker that answer nothing but a pair of 6s.
    hands = ("7H SJ", "4C", "5C", "9C 10C")
    state = playing(*hands, pile=rest(*hands, "6S"), table=[(3, "6S")])
    assert choice(state).cards == cards("7H")


def test_a_pass_on_an_earlier_trick_is_remembered_until_the_seat_draws():
    # Seat 1 passed a 3 on the last trick and has drawn nothing since: it holds no 4 and no 2,
    # so the 3 is led into its one card (it was the pair in test_no_single_led_into_...).
    hand, three = "3H KD KH", "3D"
    state = playing(hand, "10C", FAR, AWAY, pile=rest(hand, "10C", FAR, AWAY, three))
    led = readings_of_counts(rank_counts(cards(three)), 4)[0]
    log = (Logged("play", 0, cards(three), led), Logged("pass", 1), Logged("pass", 2),
           Logged("pass", 3), Logged("trick_won", 0), Logged("draw", 0))
    remembered = state._replace(round=state.round._replace(log=log))
    assert ranks(choice(remembered).cards) == ranks(cards("3H"))
    # Once it has drawn, the card drawn may be a 4 or a 2; the others still hold neither.
    drew = state._replace(round=state.round._replace(log=(*log, Logged("draw", 1))))
    lacking = recalled(observe(drew, 0)).lacking
    assert not lacking[1] and lacking[2] == lacking[3] == {RANK_INDEX["4"], RANK_INDEX["2"]}
