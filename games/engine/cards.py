"""Cards as small integers, and their wire codes.

A card id is `copy * 54 + index`: index `rank * 4 + suit` for the 52 ranked cards, 52 for the small
joker and 53 for the big one. Ids stay unique when a pack holds two copies of every card, and
integers keep hands cheap to copy, sort and compare in the hot paths.
"""

from collections import Counter
from collections.abc import Iterable

from games.engine.errors import IllegalAction

RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUITS = ("S", "H", "C", "D")
JOKER = 13  # the rank index jokers share: they are wild, never a rank of their own
TWO = 12
ACE = 11
SMALL_JOKER = 52
BIG_JOKER = 53
PER_DECK = 54
MAX_COPIES = 2

RANK_INDEX = {name: i for i, name in enumerate(RANKS)}
SUIT_INDEX = {name: i for i, name in enumerate(SUITS)}

RANK_OF = tuple(
    JOKER if c % PER_DECK >= SMALL_JOKER else (c % PER_DECK) // 4
    for c in range(PER_DECK * MAX_COPIES)
)


def card_id(rank: int, suit: int, copy: int = 0) -> int:
    return copy * PER_DECK + rank * 4 + suit


def rank_of(card: int) -> int:
    return RANK_OF[card]


def is_joker(card: int) -> bool:
    return RANK_OF[card] == JOKER


def code(card: int) -> str:
    index = card % PER_DECK
    if index == SMALL_JOKER:
        return "SJ"
    if index == BIG_JOKER:
        return "BJ"
    return RANKS[index // 4] + SUITS[index % 4]


def wire(card: int) -> dict:
    """How a card leaves the engine: its id and its code."""
    return {"id": card, "code": code(card)}


def make_pack(decks: int, ranks: Iterable[int] = range(13), jokers: bool = True) -> tuple[int, ...]:
    ranks = tuple(ranks)
    cards = []
    for copy in range(decks):
        cards.extend(card_id(r, s, copy) for r in ranks for s in range(4))
        if jokers:
            cards.extend((copy * PER_DECK + SMALL_JOKER, copy * PER_DECK + BIG_JOKER))
    return tuple(cards)


def index_of_code(text: str) -> int:
    """The per-deck index (0..53) of a wire code such as `10H` or `SJ`."""
    if not isinstance(text, str):
        raise IllegalAction("unknown_card", f"{text!r} is not a card code", card=repr(text))
    upper = text.strip().upper()
    if upper == "SJ":
        return SMALL_JOKER
    if upper == "BJ":
        return BIG_JOKER
    rank, suit = upper[:-1], upper[-1:]
    if rank not in RANK_INDEX or suit not in SUIT_INDEX:
        raise IllegalAction("unknown_card", f"{text!r} is not a card code", card=text)
    return RANK_INDEX[rank] * 4 + SUIT_INDEX[suit]


def cards_from_codes(codes: Iterable[str], pack: tuple[int, ...]) -> tuple[int, ...]:
    """Give each code a distinct card of `pack`: the first `8H` is copy 0, the second copy 1."""
    in_pack = Counter(c % PER_DECK for c in pack)
    seen: Counter = Counter()
    cards = []
    for text in codes:
        index = index_of_code(text)
        if in_pack[index] == 0:
            raise IllegalAction("card_not_in_pack", f"{text} is not in this game's pack", card=text)
        if seen[index] >= in_pack[index]:
            raise IllegalAction(
                "too_many_copies", f"the pack holds only {in_pack[index]} of {text}", card=text
            )
        cards.append(seen[index] * PER_DECK + index)
        seen[index] += 1
    return tuple(cards)
