"""Legal plays from a hand, kept small: one entry per core (reading + ranks, the hand's lowest card
ids of each rank), with `Play.extras` = how many extra cards (带牌) a triple or plane may add.

A hand never needs every kicker combination listed: any `extras`-sized subset of
`extra_candidates(hand, play)` is legal, and `Play.with_extras` turns a listed core into the play
to send.
"""

from functools import lru_cache

from games.engine.actions import Play
from games.engine.cards import ACE, RANK_OF, TWO
from games.engine.combos import Reading
from games.engine.rulesets.five_ten_k.combos import (
    BOMB,
    LOW,
    MAX_EXTRAS_PER_TRIPLE,
    PACK,
    PAIR,
    PAIR_CHAIN,
    PLANE,
    SINGLE,
    STRAIGHT,
    TRIPLE,
    beats,
)

MAX_EXTRA_OF_RANK = 3  # four of one rank may not be extras


@lru_cache(maxsize=4096)
def by_rank(hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The hand's card ids grouped by rank index, each group in ascending id order. Cached: a hand
    is listed again on every turn of its seat until it plays."""
    groups: list[list[int]] = [[] for _ in range(TWO + 1)]
    for card in sorted(hand):
        groups[RANK_OF[card]].append(card)
    return tuple(tuple(g) for g in groups)


def _chains(groups, width: int, top: int, shortest: int) -> list[tuple[int, int, tuple]]:
    """(low, high, cards) for every run of ≥ `shortest` consecutive ranks LOW..top holding
    `width`+ cards each; the cards of a maximal run are gathered once and sliced."""
    found = []
    rank = LOW
    while rank <= top:
        start = rank
        cards: list[int] = []
        while rank <= top and len(groups[rank]) >= width:
            cards.extend(groups[rank][:width])
            rank += 1
        for low in range(start, rank - shortest + 1):
            first = (low - start) * width
            for high in range(low + shortest - 1, rank):
                found.append((low, high, tuple(cards[first : (high - start + 1) * width])))
        rank += 1
    return found


def _extras_room(groups, triples: int) -> int:
    """How many extras the hand can add to `triples` triples: none of their ranks, at most three
    of any other rank, two per triple."""
    spare = sum(min(len(g), MAX_EXTRA_OF_RANK) for g in groups) - MAX_EXTRA_OF_RANK * triples
    return min(MAX_EXTRAS_PER_TRIPLE * triples, spare)


# The listings of one type: every core of a hand whose reading's rank is `floor` or more.


_SINGLE_PLAYS = {card: Play((card,), SINGLE[RANK_OF[card]]) for card in PACK}


def _singles(groups, floor: int) -> list[Play]:
    return [_SINGLE_PLAYS[g[0]] for r in range(floor, TWO + 1) if (g := groups[r])]


def _pairs(groups, floor: int) -> list[Play]:
    return [Play(g[:2], PAIR[r]) for r in range(floor, TWO + 1) if len(g := groups[r]) >= 2]


def _triples(groups, floor: int) -> list[Play]:
    ranks = [r for r in range(floor, TWO + 1) if len(groups[r]) >= 3]
    room = _extras_room(groups, 1) if ranks else 0
    return [Play(groups[r][:3], TRIPLE[r], room) for r in ranks]


def _bombs(groups, floor: int) -> list[Play]:
    return [
        Play(groups[r][:size], BOMB[r, size])
        for r in range(floor, TWO + 1)
        for size in range(4, len(groups[r]) + 1)
    ]


def _straights(groups, floor: int) -> list[Play]:
    return [
        Play(cards, STRAIGHT[low, high - low + 1])
        for low, high, cards in _chains(groups, 1, ACE, 5)
        if low >= floor
    ]


def _pair_chains(groups, floor: int) -> list[Play]:
    return [
        Play(cards, PAIR_CHAIN[low, high - low + 1])
        for low, high, cards in _chains(groups, 2, TWO, 2)
        if low >= floor
    ]


def _planes(groups, floor: int) -> list[Play]:
    return [
        Play(cards, PLANE[high, high - low + 1], _extras_room(groups, high - low + 1))
        for low, high, cards in _chains(groups, 3, TWO, 2)
        if high >= floor
    ]


PLAYS_OF_TYPE = {
    "single": _singles,
    "pair": _pairs,
    "triple": _triples,
    "straight": _straights,
    "pair_chain": _pair_chains,
    "plane": _planes,
    "bomb": _bombs,
}


def lead_plays(hand: tuple[int, ...]) -> list[Play]:
    groups = by_rank(hand)
    return [play for listing in PLAYS_OF_TYPE.values() for play in listing(groups, LOW)]


def answer_plays(hand: tuple[int, ...], previous: Reading) -> list[Play]:
    """Cores that may go on `previous`: a listed core's extras never change what it beats."""
    groups = by_rank(hand)
    out = []
    if previous.type != "bomb":
        same = PLAYS_OF_TYPE[previous.type](groups, previous.rank + 1)
        out = [p for p in same if beats(p.reading, previous)]
    out.extend(p for p in _bombs(groups, LOW) if beats(p.reading, previous))
    return out


def extra_candidates(hand, play: Play) -> tuple[int, ...]:
    """Cards of `hand` any `play.extras`-or-fewer of which may be added to the listed core `play`:
    not of a triple's rank, at most three of a rank."""
    if not play.extras:
        return ()
    core_ranks = {RANK_OF[c] for c in play.cards}
    return tuple(
        card
        for rank, group in enumerate(by_rank(tuple(hand)))
        if rank not in core_ranks
        for card in group[:MAX_EXTRA_OF_RANK]
    )


def with_random_extras(hand, play: Play, rng) -> Play:
    """For random playouts and bots: the listed `play` with 0..extras extras drawn by `rng`."""
    if not play.extras:
        return play
    extras = rng.sample(extra_candidates(hand, play), rng.randint(0, play.extras))
    return play.with_extras(extras)
