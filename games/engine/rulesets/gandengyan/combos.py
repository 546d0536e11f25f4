"""Gandengyan combinations: what a set of cards reads as, what beats what, and every play a hand
can make. Everything works on rank counts (index 13 = jokers), never on suits."""

from collections.abc import Iterator
from functools import lru_cache
from itertools import accumulate, combinations
from typing import NamedTuple

from games.engine.actions import Play
from games.engine.cards import ACE, JOKER, RANK_OF, TWO
from games.engine.combos import Reading

SINGLE, PAIR, STRAIGHT, PAIR_CHAIN, BOMB = "single", "pair", "straight", "pair_chain", "bomb"
TYPES = (SINGLE, PAIR, STRAIGHT, PAIR_CHAIN, BOMB)
MIN_STRAIGHT = 3
MIN_CHAIN_PAIRS = 2
MIN_BOMB = 3
CHAIN_RANKS = ACE + 1  # straights and pair chains use ranks 3..A: indexes 0..11


def bomb_cap(decks: int) -> int:
    """The most cards of one rank a pack holds, jokers filling: the largest bomb."""
    return 4 * decks


def rank_counts(cards) -> tuple[int, ...]:
    counts = [0] * 14
    for card in cards:
        counts[RANK_OF[card]] += 1
    return tuple(counts)


@lru_cache(maxsize=4096)
def readings_of_counts(counts: tuple[int, ...], cap: int) -> tuple[Reading, ...]:
    """Every reading of one play with these rank counts, out of context, in TYPES order."""
    present = [r for r in range(13) if counts[r]]
    if not present:  # no real card: jokers alone are never a play
        return ()
    size = sum(counts)
    low, high = present[0], present[-1]
    found = []
    if len(present) == 1:
        if size == 1:
            found.append(Reading(SINGLE, low, 1))
        elif size == 2:
            found.append(Reading(PAIR, low, 2))
    if high <= ACE:
        most = max(counts[r] for r in present)
        if most == 1 and MIN_STRAIGHT <= size <= CHAIN_RANKS:
            for start in range(max(0, high - size + 1), min(low, CHAIN_RANKS - size) + 1):
                found.append(Reading(STRAIGHT, start, size))
        pairs = size // 2
        if most <= 2 and size % 2 == 0 and MIN_CHAIN_PAIRS <= pairs <= CHAIN_RANKS:
            for start in range(max(0, high - pairs + 1), min(low, CHAIN_RANKS - pairs) + 1):
                found.append(Reading(PAIR_CHAIN, start, size))
    if len(present) == 1 and MIN_BOMB <= size <= cap:
        found.append(Reading(BOMB, low, size))
    return tuple(found)


def beats(play: Reading, previous: Reading) -> bool:
    """The comparison table of the rules page; rule 5 (the largest bomb) follows from rule 4."""
    if play.type == BOMB:
        if previous.type != BOMB:
            return True
        return play.length > previous.length or (
            play.length == previous.length and play.rank > previous.rank
        )
    if play.type != previous.type:
        return False
    if play.type in (SINGLE, PAIR):
        # Decision: a 2 never beats a 2; only a bomb does.
        return previous.rank != TWO and (play.rank == previous.rank + 1 or play.rank == TWO)
    return play.length == previous.length and play.rank == previous.rank + 1


class Shape(NamedTuple):
    """A hand seen by rank: the canonical card ids per rank index (13 = jokers, in hand order),
    the real ranks held, and the most real cards of one rank."""

    groups: tuple[tuple[int, ...], ...]
    counts: tuple[int, ...]
    held: tuple[int, ...]
    most: int
    size: int
    ranks_below: tuple[int, ...]  # [i]: how many ranks < i are held (straight gaps at a glance)
    pairable_below: tuple[int, ...]  # [i]: cards ranks < i give to pairs, two at most per rank


@lru_cache(maxsize=16384)
def shape_of(hand: tuple[int, ...]) -> Shape:
    # Cached: a seat is asked about the same hand many times while it passes.
    groups: list[list[int]] = [[] for _ in range(14)]
    for card in hand:
        groups[RANK_OF[card]].append(card)
    counts = tuple(map(len, groups))
    held = tuple(r for r in range(13) if counts[r])
    return Shape(tuple(map(tuple, groups)), counts, held, max(counts[:13]), len(hand),
                 tuple(accumulate(map(min, counts[:CHAIN_RANKS], _ONES), initial=0)),
                 tuple(accumulate(map(min, counts[:CHAIN_RANKS], _TWOS), initial=0)))


_ONES, _TWOS = (1,) * CHAIN_RANKS, (2,) * CHAIN_RANKS


def legal_plays(hand: tuple[int, ...], previous: Reading | None, cap: int) -> list[Play]:
    """One Play per (reading, multiset of ranks) the hand can put on `previous` (None: a free
    lead), with canonical card ids; ordered by type, then rank, then length."""
    shape = shape_of(hand)
    groups = shape.groups
    plays: list[Play] = []
    if previous is None:
        for rank in shape.held:
            plays.append(Play((groups[rank][0],), Reading(SINGLE, rank, 1)))
        _pairs(groups, shape.held, plays)
        _straights(shape, range(CHAIN_RANKS - MIN_STRAIGHT + 1), None, plays)
        _pair_chains(shape, range(CHAIN_RANKS - MIN_CHAIN_PAIRS + 1), None, plays)
        _bombs(shape, MIN_BOMB, 0, cap, plays)
        return plays
    kind, rank = previous.type, previous.rank
    if kind == BOMB:
        _bombs(shape, previous.length, rank + 1, cap, plays)
        return plays
    if kind in (SINGLE, PAIR) and rank != TWO:
        targets = (rank + 1,) if rank + 1 == TWO else (rank + 1, TWO)
        if kind == SINGLE:
            plays.extend(
                Play((groups[r][0],), Reading(SINGLE, r, 1)) for r in targets if groups[r]
            )
        else:
            _pairs(groups, targets, plays)
    elif kind == STRAIGHT:
        _straights(shape, (rank + 1,), previous.length, plays)
    elif kind == PAIR_CHAIN:
        _pair_chains(shape, (rank + 1,), previous.length // 2, plays)
    _bombs(shape, MIN_BOMB, 0, cap, plays)
    return plays


def _pairs(groups, ranks, plays) -> None:
    jokers = groups[JOKER]
    for rank in ranks:
        cards = groups[rank]
        if len(cards) >= 2:
            plays.append(Play(cards[:2], Reading(PAIR, rank, 2)))
        if cards and jokers:
            plays.append(Play((cards[0], jokers[0]), Reading(PAIR, rank, 2)))


def _bombs(shape: Shape, min_size, min_rank, cap, plays) -> None:
    """Bombs of `min_size` cards and rank ≥ min_rank, and every bigger bomb."""
    groups = shape.groups
    jokers = groups[JOKER]
    wild = len(jokers)
    for size in range(min_size, min(cap, shape.most + wild) + 1):
        for rank in shape.held:
            if size == min_size and rank < min_rank:
                continue
            cards = groups[rank]
            for real in range(max(1, size - wild), min(len(cards), size) + 1):
                plays.append(Play(cards[:real] + jokers[: size - real], Reading(BOMB, rank, size)))


def _straights(shape: Shape, starts, length, plays) -> None:
    """Straights from each start, of `length` cards (None: every length that fits)."""
    groups, counts, ranks_below = shape.groups, shape.counts, shape.ranks_below
    jokers = groups[JOKER]
    wild = len(jokers)
    for start in starts:
        sizes = range(MIN_STRAIGHT, CHAIN_RANKS - start + 1) if length is None else (length,)
        for size in sizes:
            end = start + size
            if end > CHAIN_RANKS or size > shape.size:
                break
            real = ranks_below[end] - ranks_below[start]
            missing = size - real
            if missing > wild:  # a longer straight from here misses at least as many ranks
                break
            held = [r for r in range(start, end) if counts[r]]
            for spare in range(min(wild - missing, real - 1) + 1):
                for swapped in combinations(held, spare):
                    cards = tuple(groups[r][0] for r in held if r not in swapped)
                    plays.append(
                        Play(cards + jokers[: missing + spare], Reading(STRAIGHT, start, size))
                    )


def _pair_chains(shape: Shape, starts, pairs, plays) -> None:
    """Pair chains from each start, of `pairs` pairs (None: every length that fits)."""
    groups, counts, pairable_below = shape.groups, shape.counts, shape.pairable_below
    jokers = groups[JOKER]
    wild = len(jokers)
    for start in starts:
        sizes = range(MIN_CHAIN_PAIRS, CHAIN_RANKS - start + 1) if pairs is None else (pairs,)
        for count in sizes:
            end = start + count
            if end > CHAIN_RANKS or 2 * count > shape.size:
                break
            if 2 * count - (pairable_below[end] - pairable_below[start]) > wild:
                break  # a longer chain from here lacks at least as many cards
            span = range(start, end)
            for reals in _chain_fills(counts, span, wild):
                cards = tuple(c for r, k in zip(span, reals, strict=True) for c in groups[r][:k])
                if cards:
                    plays.append(
                        Play(cards + jokers[: 2 * count - len(cards)],
                             Reading(PAIR_CHAIN, start, 2 * count))
                    )


def _chain_fills(counts, span, wild) -> Iterator[tuple[int, ...]]:
    """Every way to take 0..2 real cards per rank of `span` with jokers covering the rest."""
    if not span:
        yield ()
        return
    rank, rest = span[0], span[1:]
    for real in range(min(2, counts[rank]), max(0, 2 - wild) - 1, -1):
        for tail in _chain_fills(counts, rest, wild - (2 - real)):
            yield (real, *tail)
