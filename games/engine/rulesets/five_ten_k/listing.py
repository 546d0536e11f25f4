"""Legal plays from a hand, kept small: one entry per core (reading + ranks, the hand's lowest card
ids of each rank), with `Play.extras` = how many extra cards (带牌) a triple or plane may add.

A hand never needs every kicker combination listed: any `extras`-sized subset of
`extra_candidates(hand, play)` is legal, and `add_extras` turns a listed core into the play to send.
"""

from games.engine.actions import Play
from games.engine.cards import ACE, RANK_OF, TWO
from games.engine.combos import Reading
from games.engine.rulesets.five_ten_k.combos import (
    BOMB,
    LOW,
    MAX_EXTRAS_PER_TRIPLE,
    PAIR,
    PAIR_CHAIN,
    PLANE,
    SINGLE,
    STRAIGHT,
    TRIPLE,
    beats,
)

MAX_EXTRA_OF_RANK = 3  # four of one rank may not be extras


def by_rank(hand) -> list[list[int]]:
    """The hand's card ids grouped by rank index, each group in ascending id order."""
    groups: list[list[int]] = [[] for _ in range(TWO + 1)]
    for card in sorted(hand):
        groups[RANK_OF[card]].append(card)
    return groups


def _runs(counts: list[int], need: int, top: int, shortest: int):
    """(low, high) for every run of consecutive ranks LOW..top with `need`+ cards each and at
    least `shortest` ranks long."""
    start = None
    for rank in range(LOW, top + 2):
        if rank <= top and counts[rank] >= need:
            if start is None:
                start = rank
            for low in range(start, rank - shortest + 2):
                yield low, rank
        else:
            start = None


def _chain(groups, low: int, high: int, width: int) -> tuple[int, ...]:
    return tuple(card for rank in range(low, high + 1) for card in groups[rank][:width])


def _extras_room(counts: list[int], core_ranks: range) -> int:
    """How many extras the hand can add to triples of `core_ranks`: none of those ranks, at most
    three of any other rank, two per triple."""
    spare = sum(min(c, MAX_EXTRA_OF_RANK) for c in counts) - MAX_EXTRA_OF_RANK * len(core_ranks)
    return min(MAX_EXTRAS_PER_TRIPLE * len(core_ranks), spare)


def _singles(groups, counts):
    return [Play((g[0],), SINGLE[r]) for r, g in enumerate(groups) if g]


def _pairs(groups, counts):
    return [Play((g[0], g[1]), PAIR[r]) for r, g in enumerate(groups) if len(g) >= 2]


def _triples(groups, counts):
    return [
        Play((g[0], g[1], g[2]), TRIPLE[r], _extras_room(counts, range(r, r + 1)))
        for r, g in enumerate(groups)
        if len(g) >= 3
    ]


def _bombs(groups, counts):
    return [
        Play(tuple(g[:size]), BOMB[r, size])
        for r, g in enumerate(groups)
        for size in range(4, len(g) + 1)
    ]


def _straights(groups, counts):
    return [
        Play(_chain(groups, low, high, 1), STRAIGHT[low, high - low + 1])
        for low, high in _runs(counts, 1, ACE, 5)
    ]


def _pair_chains(groups, counts):
    return [
        Play(_chain(groups, low, high, 2), PAIR_CHAIN[low, high - low + 1])
        for low, high in _runs(counts, 2, TWO, 2)
    ]


def _planes(groups, counts):
    return [
        Play(
            _chain(groups, low, high, 3),
            PLANE[high, high - low + 1],
            _extras_room(counts, range(low, high + 1)),
        )
        for low, high in _runs(counts, 3, TWO, 2)
    ]


# Every core of one type a hand holds, by type id (bombs: every size of every rank).
PLAYS_OF_TYPE = {
    "single": _singles,
    "pair": _pairs,
    "triple": _triples,
    "straight": _straights,
    "pair_chain": _pair_chains,
    "plane": _planes,
    "bomb": _bombs,
}


def lead_plays(hand) -> list[Play]:
    groups = by_rank(hand)
    counts = [len(g) for g in groups]
    return [play for listing in PLAYS_OF_TYPE.values() for play in listing(groups, counts)]


def answer_plays(hand, previous: Reading) -> list[Play]:
    """Cores that may go on `previous`: a listed core's extras never change what it beats."""
    groups = by_rank(hand)
    counts = [len(g) for g in groups]
    out = []
    if previous.type != "bomb":
        same = PLAYS_OF_TYPE[previous.type](groups, counts)
        out = [p for p in same if beats(p.reading, previous)]
    out.extend(p for p in _bombs(groups, counts) if beats(p.reading, previous))
    return out


def extra_candidates(hand, play: Play) -> tuple[int, ...]:
    """Cards of `hand` any `play.extras`-or-fewer of which may be added to the listed core `play`:
    not of a triple's rank, at most three of a rank."""
    if not play.extras:
        return ()
    core_ranks = {RANK_OF[c] for c in play.cards}
    return tuple(
        card
        for rank, group in enumerate(by_rank(hand))
        if rank not in core_ranks
        for card in group[:MAX_EXTRA_OF_RANK]
    )


def add_extras(play: Play, extras) -> Play:
    """The play to submit: a listed core with the chosen extras, its reading named."""
    extras = tuple(extras)
    reading = play.reading._replace(length=play.reading.length + len(extras))
    return Play(play.cards + extras, reading)


def playable_ranks(hand, plays: list[Play]) -> set[int]:
    """Ranks of which some card may be used in a listed play, as part of a core or as an extra."""
    ranks = set()
    for play in plays:
        ranks.update(RANK_OF[c] for c in play.cards)
        if play.extras:
            ranks.update(RANK_OF[c] for c in extra_candidates(hand, play))
    return ranks


def with_random_extras(hand, play: Play, rng) -> Play:
    """For random playouts and bots: the listed `play` with 0..extras extras drawn by `rng`."""
    if not play.extras:
        return play
    extras = rng.sample(extra_candidates(hand, play), rng.randint(0, play.extras))
    return add_extras(play, extras)
