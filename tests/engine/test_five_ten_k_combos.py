"""510k combinations and comparisons, table-driven from rules/510k.md, and the legal listings
checked against every subset of small hands."""

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.actions import Play
from games.engine.cards import RANK_INDEX, RANK_OF, RANKS
from games.engine.combos import Reading
from games.engine.rulesets.five_ten_k.combos import PACK, beats, points_of
from games.engine.rulesets.five_ten_k.listing import answer_plays, extra_candidates, lead_plays
from tests.engine.five_ten_k_support import RULES, cards, listed_sets, ranks


def r(kind: str, rank: str, length: int, triples: int = 0) -> Reading:
    return Reading(kind, RANK_INDEX[rank], length, triples)


@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        ("7H", [r("single", "7", 1)]),
        ("2S 2S", [r("pair", "2", 2)]),
        ("9H 9D 9S", [r("triple", "9", 3)]),
        ("9H 9D 9S 5C", [r("triple", "9", 4)]),  # one extra
        ("9H 9D 9S 5C 5D", [r("triple", "9", 5)]),  # a pair as extras
        ("9H 9D 9S 5C JD", [r("triple", "9", 5)]),  # two singles as extras
        ("9H 9D 9S 5C JD QD", []),  # three extras on one triple
        ("9H 9D 9S 9C", [r("bomb", "9", 4)]),  # never 999+9
        ("8H 8D 8S 8C 5H", []),  # Decision: 8888+5 is not a play
        ("5H 5D 5S 5C 5H 5D 5S 5C", [r("bomb", "5", 8)]),
        ("5H 6S 7D 8C 9H", [r("straight", "5", 5)]),
        ("10H JS QD KC AH", [r("straight", "10", 5)]),
        ("5H 6S 7D 8C 9H 10H JS QD KC AH", [r("straight", "5", 10)]),
        ("JH QS KD AC 2H", []),  # no 2 in a straight
        ("5H 6S 7D 8C", []),  # too short
        ("5H 6S 7D 8C 10H", []),  # a gap
        ("5H 5S 6H 6S", [r("pair_chain", "5", 4)]),
        ("AH AD 2S 2C", [r("pair_chain", "A", 4)]),  # AA22
        ("QH QD KS KC AH AD 2S 2C", [r("pair_chain", "Q", 8)]),
        ("5H 5S 7H 7S", []),
        ("5H 5D 5S 6H 6D 6S", [r("plane", "6", 6, 2)]),
        ("AH AD AS 2H 2D 2S", [r("plane", "2", 6, 2)]),  # AAA222
        ("5H 5D 5S 6H 6D 6S 9C JC", [r("plane", "6", 8, 2)]),
        ("5H 5D 5S 6H 6D 6S 9C 9D JC JD", [r("plane", "6", 10, 2)]),  # 4 extras
        ("5H 5D 5S 6H 6D 6S 9C 9D JC JD QS", []),  # 5 extras on 2 triples
        ("5H 5D 5S 6H 6D 6S 9C 9D 9H 9S", []),  # Decision: extras never hold four of a rank
        ("5H 5D 5S 6H 6D 6S 6C 9D", []),  # Decision: an extra may not share a triple's rank
        ("5H 5D 5S 7H 7D 7S", []),  # triples not consecutive
        (
            "5H 5D 5S 6H 6D 6S 7H 7D 7S",
            [r("plane", "6", 9, 2), r("plane", "7", 9, 2), r("plane", "7", 9, 3)],
        ),  # 555666+777, 666777+555 and the three-triple plane
        ("5H 5D 5S 6H 6D 6S 5C", []),  # 5555 inside: no triple of 5s with a fourth
    ],
)
def test_readings(codes, expected):
    assert sorted(RULES.readings({}, cards(codes))) == sorted(expected)


def test_cards_outside_the_pack_read_as_nothing():
    three, small_joker = 0, 52
    assert RULES.readings({}, (three,)) == []
    assert RULES.readings({}, (small_joker,)) == []
    assert RULES.readings({}, ()) == []


@pytest.mark.parametrize(
    ("play", "previous", "expected"),
    [
        (r("single", "6", 1), r("single", "5", 1), True),
        (r("single", "9", 1), r("single", "5", 1), True),  # no +1 rule
        (r("single", "5", 1), r("single", "5", 1), False),
        (r("single", "2", 1), r("single", "2", 1), False),
        (r("pair", "6", 2), r("single", "5", 1), False),
        (r("triple", "9", 3), r("triple", "8", 4), True),  # 999 > 888+2
        (r("triple", "8", 4), r("triple", "7", 5), True),  # 888+2 > 777+56
        (r("triple", "7", 5), r("triple", "8", 3), False),
        (r("straight", "6", 5), r("straight", "5", 5), True),
        (r("straight", "6", 6), r("straight", "5", 5), False),  # lengths differ
        (r("pair_chain", "6", 4), r("pair_chain", "5", 4), True),
        (r("pair_chain", "6", 6), r("pair_chain", "5", 4), False),
        (r("plane", "7", 6, 2), r("plane", "6", 10, 2), True),  # Decision: 666777 > 555666+9J
        (r("plane", "8", 10, 2), r("plane", "7", 6, 2), True),  # and 777888+9J > 666777
        (r("plane", "8", 9, 3), r("plane", "7", 9, 2), False),  # triples must match
        (r("plane", "8", 9, 2), r("plane", "9", 6, 2), False),
        (r("bomb", "5", 4), r("triple", "2", 3), True),
        (r("bomb", "5", 4), r("straight", "10", 5), True),
        (r("bomb", "6", 4), r("bomb", "5", 4), True),
        (r("bomb", "5", 5), r("bomb", "2", 4), True),  # more cards first
        (r("bomb", "2", 4), r("bomb", "5", 5), False),
        (r("bomb", "2", 8), r("bomb", "A", 8), True),
        (r("bomb", "5", 4), r("bomb", "5", 4), False),
        (r("triple", "2", 3), r("bomb", "5", 4), False),
    ],
)
def test_beats(play, previous, expected):
    assert beats(play, previous) is expected
    assert RULES.beats({}, play, previous) is expected


def test_points_in_the_pack():
    assert points_of(cards("5H 10S KD 9C")) == 25
    assert points_of(PACK) == 200


def test_reading_json_keeps_the_triples_count():
    plane = r("plane", "7", 9, 3)
    assert plane.to_dict() == {"type": "plane", "rank": "7", "length": 9, "triples": 3}
    assert Reading.from_dict(plane.to_dict()) == plane
    assert r("pair", "7", 2).to_dict() == {"type": "pair", "rank": "7", "length": 2}


# -- listings -------------------------------------------------------------------------------------


def brute_force(hand, previous=None) -> set[tuple]:
    out = set()
    for k in range(1, len(hand) + 1):
        for subset in combinations(hand, k):
            for reading in RULES.readings({}, subset):
                if previous is None or beats(reading, previous):
                    out.add((reading, ranks(subset)))
    return out


def hands(pool) -> st.SearchStrategy:
    return st.lists(st.sampled_from(pool), min_size=1, max_size=11, unique=True).map(
        lambda h: tuple(sorted(h))
    )


# Five ranks only: triples, planes and bombs come often.
NARROW = tuple(c for c in PACK if RANK_OF[c] <= RANK_INDEX["9"])
PREVIOUS = [
    r("single", "7", 1), r("pair", "6", 2), r("triple", "6", 5), r("straight", "5", 5),
    r("pair_chain", "5", 4), r("plane", "6", 8, 2), r("bomb", "7", 4), r("bomb", "5", 5),
]


@settings(max_examples=60, deadline=None)
@given(hand=hands(PACK) | hands(NARROW))
def test_lead_listing_is_exactly_every_legal_play(hand):
    assert listed_sets(hand, lead_plays(hand)) == brute_force(hand)


@settings(max_examples=60, deadline=None)
@given(hand=hands(PACK) | hands(NARROW), previous=st.sampled_from(PREVIOUS))
def test_answer_listing_is_exactly_every_legal_answer(hand, previous):
    assert listed_sets(hand, answer_plays(hand, previous)) == brute_force(hand, previous)


def test_listing_is_one_entry_per_core_with_extras_counted():
    hand = tuple(sorted(cards("5H 5D 5S 6H 6D 6S 9C 9D 9H 9S JC QD")))
    plays = lead_plays(hand)
    keys = [(p.reading, ranks(p.cards)) for p in plays]
    assert len(keys) == len(set(keys))
    plane = next(p for p in plays if p.reading.type == "plane")
    # 9s may give three extras at most, plus J and Q: room for the full four.
    assert (plane.reading, plane.extras) == (r("plane", "6", 6, 2), 4)
    assert ranks(extra_candidates(hand, plane)) == ranks(cards("9C 9D 9H JC QD"))
    triple_of_nines = next(p for p in plays if p.reading == r("triple", "9", 3))
    assert triple_of_nines.extras == 2
    assert triple_of_nines.with_extras(cards("JC QD")) == Play(
        triple_of_nines.cards + cards("JC QD"), r("triple", "9", 5)
    )


def test_listing_a_22_card_hand_stays_small():
    hand = tuple(sorted(cards(" ".join(f"{rank}H {rank}D" for rank in RANKS[2:]))))
    plays = lead_plays(hand)
    # 11 singles, 11 pairs, 21 straights, 55 pair chains: no kicker combinations.
    assert len(plays) == 11 + 11 + 21 + 55
