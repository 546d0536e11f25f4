"""510k combinations: what a set of cards may be read as, and what beats what.

Ranks are the indexes of `cards.RANKS`: 2 ('5') .. 12 ('2'); the pack has no 3, 4 or joker.
Readings are interned in tables so the hot paths (listing, applying) never build one.
"""

from games.engine.cards import ACE, RANK_OF, TWO, make_pack
from games.engine.combos import Reading

LOW = 2  # '5', the lowest rank in the pack
RANKS_510K = range(LOW, TWO + 1)
MAX_OF_RANK = 8  # two decks
MAX_EXTRAS_PER_TRIPLE = 2
POINTS = {LOW: 5, 7: 10, 10: 10}  # 5, 10 and K
PACK = make_pack(2, ranks=RANKS_510K, jokers=False)

SINGLE = {r: Reading("single", r, 1) for r in RANKS_510K}
PAIR = {r: Reading("pair", r, 2) for r in RANKS_510K}
TRIPLE = {r: Reading("triple", r, 3) for r in RANKS_510K}
BOMB = {(r, n): Reading("bomb", r, n) for r in RANKS_510K for n in range(4, MAX_OF_RANK + 1)}
# Keyed by (lowest rank, number of ranks in the run).
STRAIGHT = {
    (r, n): Reading("straight", r, n) for r in RANKS_510K for n in range(5, ACE - r + 2)
}
PAIR_CHAIN = {
    (r, n): Reading("pair_chain", r, 2 * n) for r in RANKS_510K for n in range(2, TWO - r + 2)
}
# Bare planes, keyed by (highest triple, number of triples).
PLANE = {
    (r, n): Reading("plane", r, 3 * n, n) for r in RANKS_510K for n in range(2, r - LOW + 2)
}


def points_of(cards) -> int:
    return sum(POINTS.get(RANK_OF[c], 0) for c in cards)


def rank_counts(cards) -> dict[int, int]:
    counts: dict[int, int] = {}
    for card in cards:
        rank = RANK_OF[card]
        counts[rank] = counts.get(rank, 0) + 1
    return counts


def _consecutive(ranks: list[int]) -> bool:
    return ranks[-1] - ranks[0] == len(ranks) - 1


def readings_of(cards) -> list[Reading]:
    """Every legal reading of `cards` (card ids of the 510k pack) as one play."""
    n = len(cards)
    counts = rank_counts(cards)
    ranks = sorted(counts)
    if not ranks or ranks[0] < LOW or ranks[-1] > TWO:
        return []
    if len(ranks) == 1:
        rank = ranks[0]
        if n <= 3:
            return [(SINGLE, PAIR, TRIPLE)[n - 1][rank]]
        return [BOMB[rank, n]] if n <= MAX_OF_RANK else []
    found = []
    if n == len(ranks) and n >= 5 and ranks[-1] <= ACE and _consecutive(ranks):
        found.append(STRAIGHT[ranks[0], n])
    if n == 2 * len(ranks) and _consecutive(ranks) and all(counts[r] == 2 for r in ranks):
        found.append(PAIR_CHAIN[ranks[0], len(ranks)])
    if max(counts.values()) <= 3:
        found.extend(_triple_readings(counts, ranks, n))
    return found


def _triple_readings(counts: dict[int, int], ranks: list[int], n: int) -> list[Reading]:
    """Triples and planes: the triples are exactly-three ranks (a fourth card would be an extra of
    a triple's rank); whatever is left over is the extras, at most two per triple."""
    triples = [r for r in ranks if counts[r] == 3]
    found = []
    if n - 3 <= MAX_EXTRAS_PER_TRIPLE:
        found.extend(Reading("triple", r, n) for r in triples)
    # Every run of ≥ 2 consecutive triple ranks may be the plane, the rest its extras.
    for i, low in enumerate(triples):
        for j in range(i + 1, len(triples)):
            high = triples[j]
            size = j - i + 1
            if high - low != size - 1:
                break
            if n - 3 * size <= MAX_EXTRAS_PER_TRIPLE * size:
                found.append(Reading("plane", high, n, size))
    return found


def beats(play: Reading, previous: Reading) -> bool:
    """Bombs: more cards, then higher rank, over every non-bomb. Else the same type, shape
    (length for straights and pair chains, number of triples for planes) and a higher rank."""
    if play.type == "bomb":
        if previous.type != "bomb":
            return True
        return (play.length, play.rank) > (previous.length, previous.rank)
    if play.type != previous.type or play.rank <= previous.rank:
        return False
    if play.type in ("straight", "pair_chain"):
        return play.length == previous.length
    if play.type == "plane":
        return play.triples == previous.triples
    return True
