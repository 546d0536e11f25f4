"""Gandengyan combinations and comparisons, table-driven from rules/gandengyan.md and the seed."""

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import make_pack
from games.engine.errors import IllegalAction
from games.engine.rulesets.gandengyan.combos import (
    legal_plays,
    rank_counts,
    readings_of_counts,
)
from tests.engine.gandengyan_support import RULES, cards, ranks, reading


def readings(options: dict, ids) -> list:
    return RULES.readings(RULES.parse_options(options), ids)


def beats(options: dict, play, previous) -> bool:
    return RULES.beats(RULES.parse_options(options), play, previous)


def read(text: str, decks: int = 1) -> list:
    return readings({"decks": decks}, cards(text, decks))


r = reading


@pytest.mark.parametrize(
    ("codes", "decks", "expected"),
    [
        # the seed's examples
        ("8H SJ", 1, [r("pair", "8", 2)]),
        ("8H 8D SJ", 1, [r("bomb", "8", 3)]),
        ("8H 8D 8S BJ", 1, [r("bomb", "8", 4)]),
        ("3H SJ 5D", 1, [r("straight", "3", 3)]),
        # Decision: 33+44+joker is five cards, no combination; 33-44-55 needs six
        ("3H 3D 4S 4C SJ", 1, []),
        ("3H 3D 4S 4C 5H SJ", 1, [r("pair_chain", "3", 6)]),
        ("3H 3D 4S 4C SJ BJ", 1, [r("pair_chain", "3", 6)]),
        # the page's several readings
        ("3H SJ BJ", 1, [r("straight", "3", 3), r("bomb", "3", 3)]),
        ("SJ 5H 6D", 1, [r("straight", "4", 3), r("straight", "5", 3)]),
        ("4H 4D SJ BJ", 1, [r("pair_chain", "3", 4), r("pair_chain", "4", 4), r("bomb", "4", 4)]),
        ("SJ BJ AH", 1, [r("straight", "Q", 3), r("bomb", "A", 3)]),
        # singles, pairs
        ("2H", 1, [r("single", "2", 1)]),
        ("SJ", 1, []),
        ("SJ BJ", 1, []),
        ("2H BJ", 1, [r("pair", "2", 2)]),
        ("9H 9D", 1, [r("pair", "9", 2)]),
        ("9H 10D", 1, []),
        # straights: 3..A only, no wrap, A follows K
        ("10H JD QS KC AH", 1, [r("straight", "10", 5)]),
        ("KH AS 2D", 1, []),
        ("AH 2S 3D", 1, []),
        ("3H 4D", 1, []),
        ("3H 4D 5S 6C 7H 8D 9S 10C JH QD KS AC", 1, [r("straight", "3", 12)]),
        ("3H 4D 6S", 1, []),
        # pair chains: 3..A only
        ("3H 3D 4S 4C", 1, [r("pair_chain", "3", 4)]),
        ("KH KD AS AC", 1, [r("pair_chain", "K", 4)]),
        ("AH AD 2S 2C", 1, []),
        ("3H 3D 5S 5C", 1, []),
        ("3H 3D 4S", 1, []),
        # bombs: any three of a kind, up to 4 × decks cards with jokers
        ("7H 7D 7S", 1, [r("bomb", "7", 3)]),
        ("2H 2D 2S 2C", 1, [r("bomb", "2", 4)]),
        ("8H 8D 8S 8C BJ", 1, []),
        ("8H 8D 8S 8C BJ", 2, [r("bomb", "8", 5)]),
        ("8H 8D 8S 8C 8H 8D SJ BJ", 2, [r("bomb", "8", 8)]),
        ("8H 8D 8S 8C 8H 8D 8S SJ BJ", 2, []),
        ("3H 3D 3S 3C 3H 3D 3S 3C", 2, [r("bomb", "3", 8)]),
    ],
)
def test_readings(codes, decks, expected):
    assert read(codes, decks) == expected


@pytest.mark.parametrize(
    ("play", "previous", "expected"),
    [
        # 1. previous single X: X+1, a single 2, any bomb
        (("single", "5", 1), ("single", "4", 1), True),
        (("single", "6", 1), ("single", "4", 1), False),
        (("single", "3", 1), ("single", "4", 1), False),
        (("single", "4", 1), ("single", "4", 1), False),
        (("single", "2", 1), ("single", "4", 1), True),
        (("single", "A", 1), ("single", "K", 1), True),
        (("single", "2", 1), ("single", "K", 1), True),
        (("single", "2", 1), ("single", "A", 1), True),
        (("bomb", "3", 3), ("single", "2", 1), True),
        # Decision: a 2 does not beat a 2
        (("single", "2", 1), ("single", "2", 1), False),
        # 2. previous pair X: pair X+1, pair of 2s, any bomb
        (("pair", "10", 2), ("pair", "9", 2), True),
        (("pair", "J", 2), ("pair", "9", 2), False),
        (("pair", "2", 2), ("pair", "9", 2), True),
        (("pair", "2", 2), ("pair", "2", 2), False),
        (("bomb", "3", 3), ("pair", "2", 2), True),
        # 3. straights / pair chains: same type and length, lowest rank exactly +1, or a bomb
        (("straight", "4", 3), ("straight", "3", 3), True),
        (("straight", "5", 3), ("straight", "3", 3), False),
        (("straight", "4", 4), ("straight", "3", 3), False),
        (("straight", "3", 3), ("straight", "3", 3), False),
        (("pair_chain", "4", 4), ("pair_chain", "3", 4), True),
        (("pair_chain", "5", 4), ("pair_chain", "3", 4), False),
        (("pair_chain", "4", 6), ("pair_chain", "3", 4), False),
        (("bomb", "3", 3), ("straight", "10", 5), True),
        (("bomb", "3", 3), ("pair_chain", "10", 6), True),
        # 4. previous bomb: more cards whatever the rank, or as many of a higher rank
        (("bomb", "3", 5), ("bomb", "2", 4), True),
        (("bomb", "3", 4), ("bomb", "2", 3), True),
        (("bomb", "4", 3), ("bomb", "3", 3), True),
        (("bomb", "9", 3), ("bomb", "3", 3), True),  # no +1 rule between bombs
        (("bomb", "3", 3), ("bomb", "2", 3), False),
        (("bomb", "3", 3), ("bomb", "3", 3), False),
        (("bomb", "2", 3), ("bomb", "3", 4), False),
        # 5. the largest bomb: only the same size, higher rank
        (("bomb", "4", 8), ("bomb", "3", 8), True),
        (("bomb", "2", 7), ("bomb", "3", 8), False),
        (("bomb", "3", 4), ("bomb", "2", 4), False),
        # 7. different types never, bar bombs over non-bombs
        (("single", "5", 1), ("pair", "4", 2), False),
        (("pair", "5", 2), ("single", "4", 1), False),
        (("straight", "4", 4), ("pair_chain", "3", 4), False),
        (("pair_chain", "4", 4), ("straight", "3", 4), False),
        (("pair", "5", 2), ("straight", "3", 3), False),
        (("pair", "9", 2), ("bomb", "8", 3), False),
        (("single", "2", 1), ("bomb", "3", 3), False),
        (("straight", "4", 3), ("bomb", "3", 3), False),
    ],
)
def test_comparison_table(play, previous, expected):
    assert beats({"decks": 2}, reading(*play), reading(*previous)) is expected


def beats_cards(codes: str, previous: str, decks: int = 1) -> bool:
    """As the evaluate endpoint asks: does some reading of `codes` beat `previous`'s only one."""
    (prev,) = readings({"decks": decks}, cards(previous, decks))
    return any(beats({}, p, prev) for p in readings({"decks": decks}, cards(codes, decks)))


@pytest.mark.parametrize(
    ("codes", "previous", "decks", "expected"),
    [
        ("6H", "5S", 1, True),  # the seed: on a single 5, a 6 or a 2, never a 7
        ("7H", "5S", 1, False),
        ("2H", "5S", 1, True),
        ("2H", "2S", 1, False),
        ("2H BJ", "9S 9D", 1, True),  # 2 + joker is a pair of 2s
        ("AH SJ", "KS KD", 1, True),
        ("3H 3D 3S", "2S 2D 2C", 1, False),
        ("3H 3D 3S 3C", "2S 2D BJ", 1, True),
        ("4H 5S 6D", "3S 4D 5C", 1, True),
        ("5H 6S 7D", "3S 4D 5C", 1, False),
        ("9H 9D", "8S 8D 8C", 1, False),
        ("8H 8H 8D 8D 8S 8S 8C 8C", "2H 2H 2D 2D 2S 2S 2C", 2, True),  # the seed: 8 beats 7
        ("3H 3H 3D 3D 3S", "2H 2D 2S 2C", 2, True),  # the seed: five 3s beat four 2s
        ("4H 4D 4S 4C 4H 4D 4S 4C", "3H 3D 3S 3C 3H 3D SJ BJ", 2, True),
        ("2H 2D 2S 2C 2H 2D 2S", "3H 3D 3S 3C 3H 3D SJ BJ", 2, False),
        ("SJ 5H 6D", "3S 4D 5C", 1, True),  # read as 4-5-6
        ("SJ 6H 7D", "4S 5D 6C", 1, True),  # read as 5-6-7
        ("9H", "8S 9S 10S", 1, False),
    ],
)
def test_plays_on_plays(codes, previous, decks, expected):
    assert beats_cards(codes, previous, decks) is expected


@pytest.mark.parametrize(
    ("ids", "decks", "code"),
    [
        ((54,), 1, "unknown_card"),
        ((108,), 2, "unknown_card"),
        ((-1,), 1, "unknown_card"),
        ((True,), 1, "unknown_card"),
        ((3, 3), 1, "duplicate_card"),
    ],
)
def test_readings_refuse_cards_outside_the_pack(ids, decks, code):
    with pytest.raises(IllegalAction) as err:
        readings({"decks": decks}, ids)
    assert err.value.code == code


def brute_force(hand, previous, cap) -> set[tuple]:
    """Every (reading, ranks) any subset of `hand` allows, straight from the definitions."""
    found = set()
    for size in range(1, len(hand) + 1):
        for subset in combinations(hand, size):
            for found_reading in readings_of_counts(rank_counts(subset), cap):
                if previous is None or beats({}, found_reading, previous):
                    found.add((found_reading, ranks(subset)))
    return found


def joker_rich_hands(decks: int):
    """Hands that lean on jokers and close ranks, where the listing is hardest."""
    pack = make_pack(decks)
    jokers = [c for c in pack if c % 54 >= 52]
    low = [c for c in pack if c % 54 < 52 and (c % 54) // 4 in (0, 1, 2, 3, 10, 11, 12)]
    return st.tuples(
        st.lists(st.sampled_from(jokers), max_size=len(jokers), unique=True),
        st.lists(st.sampled_from(low), min_size=1, max_size=8, unique=True),
        st.lists(st.sampled_from(pack), max_size=3, unique=True),
    ).map(lambda parts: tuple(sorted(set(parts[0] + parts[1] + parts[2]))))


@st.composite
def hand_and_previous(draw):
    decks = draw(st.sampled_from((1, 2)))
    hand = draw(joker_rich_hands(decks))
    previous_cards = draw(joker_rich_hands(decks))
    previous_readings = readings_of_counts(rank_counts(previous_cards), 4 * decks)
    previous = None
    if previous_readings and draw(st.booleans()):
        previous = draw(st.sampled_from(previous_readings))
    return decks, hand, previous


@settings(max_examples=250, deadline=None)
@given(hand_and_previous())
def test_listing_is_exactly_every_legal_subset(case):
    decks, hand, previous = case
    plays = legal_plays(hand, previous, 4 * decks)
    listed = [(p.reading, ranks(p.cards)) for p in plays]
    assert len(listed) == len(set(listed)), "one entry per (reading, multiset of ranks)"
    assert all(set(p.cards) <= set(hand) and len(set(p.cards)) == len(p.cards) for p in plays)
    assert set(listed) == brute_force(hand, previous, 4 * decks)
