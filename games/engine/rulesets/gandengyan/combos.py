"""Gandengyan combinations: what a set of cards reads as, what beats what, and every play a hand
can make. Everything works on rank counts (index 13 = jokers), never on suits."""

from collections.abc import Iterator
from functools import lru_cache
from itertools import compress, groupby
from typing import NamedTuple

from games.engine.actions import Play
from games.engine.cards import ACE, JOKER, RANK_OF, TWO
from games.engine.combos import Reading

SINGLE, PAIR, STRAIGHT, PAIR_CHAIN, BOMB = "single", "pair", "straight", "pair_chain", "bomb"
MIN_STRAIGHT = 3
MIN_CHAIN_PAIRS = 2
MIN_BOMB = 3
CHAIN_RANKS = ACE + 1  # straights and pair chains use ranks 3..A: indexes 0..11
MAX_BOMB = 8

# Every reading a listing can name, built once: listings are built on every turn.
SINGLES = tuple(Reading(SINGLE, r, 1) for r in range(13))
PAIRS = tuple(Reading(PAIR, r, 2) for r in range(13))
BOMBS = tuple(tuple(Reading(BOMB, r, n) for r in range(13)) for n in range(MAX_BOMB + 1))
STRAIGHTS = tuple(tuple(Reading(STRAIGHT, s, n) for n in range(CHAIN_RANKS + 1))
                  for s in range(CHAIN_RANKS))
CHAINS = tuple(tuple(Reading(PAIR_CHAIN, s, n) for n in range(2 * CHAIN_RANKS + 1))
               for s in range(CHAIN_RANKS))


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
    """Every reading of one play with these rank counts, out of context: singles, pairs,
    straights, pair chains, bombs."""
    present = [r for r in range(13) if counts[r]]
    if not present:  # no real card: jokers alone are never a play
        return ()
    size = sum(counts)
    low, high = present[0], present[-1]
    found = []
    if len(present) == 1:
        if size == 1:
            found.append(SINGLES[low])
        elif size == 2:
            found.append(PAIRS[low])
    if high <= ACE:
        most = max(counts[r] for r in present)
        if most == 1 and MIN_STRAIGHT <= size <= CHAIN_RANKS:
            for start in range(max(0, high - size + 1), min(low, CHAIN_RANKS - size) + 1):
                found.append(STRAIGHTS[start][size])
        pairs = size // 2
        if most <= 2 and size % 2 == 0 and MIN_CHAIN_PAIRS <= pairs <= CHAIN_RANKS:
            for start in range(max(0, high - pairs + 1), min(low, CHAIN_RANKS - pairs) + 1):
                found.append(CHAINS[start][size])
    if len(present) == 1 and MIN_BOMB <= size <= cap:
        found.append(BOMBS[size][low])
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
    the real ranks held, the most real cards of one rank, and bit masks of the ranks 3..A held
    once or more (`singles`) and twice or more (`doubles`)."""

    groups: tuple[tuple[int, ...], ...]
    counts: tuple[int, ...]
    held: tuple[int, ...]
    most: int
    size: int
    singles: int
    doubles: int


@lru_cache(maxsize=16384)
def shape_of(hand: tuple[int, ...]) -> Shape:
    # Cached: a seat is asked about the same hand many times while it passes.
    groups: list[tuple[int, ...]] = [()] * 14
    for rank, cards in groupby(hand, RANK_OF.__getitem__):  # hands are sorted: one run per rank
        groups[rank] += tuple(cards)
    counts = tuple(map(len, groups))
    held = tuple(compress(range(13), counts))
    singles = sum(1 << r for r in held if r < CHAIN_RANKS)
    doubles = sum(1 << r for r in held if r < CHAIN_RANKS and counts[r] >= 2)
    return Shape(tuple(groups), counts, held, max(counts[:13]), len(hand), singles, doubles)


def legal_plays(hand: tuple[int, ...], previous: Reading | None, cap: int) -> list[Play]:
    """One Play per (reading, multiset of ranks) the hand can put on `previous` (None: a free
    lead), with canonical card ids; singles, pairs, straights, pair chains, then bombs."""
    shape = shape_of(hand)
    groups = shape.groups
    plays: list[Play] = []
    if previous is None:
        for rank in shape.held:
            plays.append(Play((groups[rank][0],), SINGLES[rank]))
        _pairs(groups, shape.held, plays)
        _runs(shape, 1, None, None, plays)
        _runs(shape, 2, None, None, plays)
        _bombs(shape, MIN_BOMB, 0, cap, plays)
        return plays
    kind, rank = previous.type, previous.rank
    if kind == BOMB:
        _bombs(shape, previous.length, rank + 1, cap, plays)
        return plays
    if kind in (SINGLE, PAIR) and rank != TWO:
        targets = (rank + 1,) if rank + 1 == TWO else (rank + 1, TWO)
        if kind == SINGLE:
            for target in targets:
                if groups[target]:
                    plays.append(Play((groups[target][0],), SINGLES[target]))
        else:
            _pairs(groups, targets, plays)
    elif kind == STRAIGHT:
        _runs(shape, 1, rank + 1, previous.length, plays)
    elif kind == PAIR_CHAIN:
        _runs(shape, 2, rank + 1, previous.length // 2, plays)
    if shape.most + len(groups[JOKER]) >= MIN_BOMB:
        _bombs(shape, MIN_BOMB, 0, cap, plays)
    return plays


def _pairs(groups, ranks, plays) -> None:
    jokers = groups[JOKER]
    for rank in ranks:
        cards = groups[rank]
        if len(cards) >= 2:
            plays.append(Play(cards[:2], PAIRS[rank]))
        if cards and jokers:
            plays.append(Play((cards[0], jokers[0]), PAIRS[rank]))


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
                plays.append(Play(cards[:real] + jokers[: size - real], BOMBS[size][rank]))


def _runs(shape: Shape, width: int, start: int | None, units: int | None, plays) -> None:
    """Straights (width 1) or pair chains (width 2) from `start`, of `units` ranks (None: from
    every start, of every length that fits)."""
    shortest, table = (MIN_STRAIGHT, STRAIGHTS) if width == 1 else (MIN_CHAIN_PAIRS, CHAINS)
    groups, counts = shape.groups, shape.counts
    jokers = groups[JOKER]
    wild = len(jokers)
    if start is None:
        if shape.size < width * shortest:
            return
        if not wild:  # the common case, at a glance: `shortest` full ranks in a row from a start
            mask = shape.singles if width == 1 else shape.doubles
            seeds = mask
            for step in range(1, shortest):
                seeds &= mask >> step
            starts = [r for r in shape.held if seeds >> r & 1]
        else:  # a run starts at a real card or at most wild // width ranks of jokers below one
            last = CHAIN_RANKS - shortest
            starts = sorted({s for r in shape.held
                             for s in range(max(0, r - wild // width), min(r, last) + 1)})
    else:
        starts = (start,)
    for first in starts:
        lacking = 0
        for end in range(first + 1, CHAIN_RANKS + 1):  # the run covers ranks first..end-1
            if counts[end - 1] < width:
                lacking += width - counts[end - 1]
            count, size = end - first, width * (end - first)
            if lacking > wild or size > shape.size:
                break  # a longer run from here lacks at least as much
            if count < shortest or (units is not None and count != units):
                continue
            span = range(first, end)
            for reals in _fills(counts, span, width, wild):
                cards = tuple(c for r, k in zip(span, reals, strict=True) for c in groups[r][:k])
                if cards:
                    plays.append(Play(cards + jokers[: size - len(cards)], table[first][size]))


def _fills(counts, span, width, wild) -> Iterator[tuple[int, ...]]:
    """Every way to take 0..width real cards per rank of `span` with jokers covering the rest."""
    if not span:
        yield ()
        return
    rank, rest = span[0], span[1:]
    for real in range(min(width, counts[rank]), max(0, width - wild) - 1, -1):
        for tail in _fills(counts, rest, width, wild - (width - real)):
            yield (real, *tail)
