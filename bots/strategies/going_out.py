"""A play that empties the hand, which every level takes: it wins a gandengyan round, and in 510k
it finishes the seat (the first out is worth 40 to its side) with nothing left to lose."""

from collections.abc import Callable, Iterable

from games.engine.actions import Action, Play


def going_out(hand: tuple[int, ...], legal: Iterable[Action],
              extra_candidates: Callable[[tuple[int, ...], Play], tuple[int, ...]] | None = None,
              ) -> Play | None:
    """The strongest listed play that empties `hand`, every card left added as its extras (带牌)
    where the play allows them (`extra_candidates`: the ruleset's, None where plays carry no
    extras); None if none does. Strongest: a bomb first (it takes the trick
    more surely, and in gandengyan it doubles what the others pay), then the highest rank."""
    size = len(hand)
    found = []
    for p in legal:
        if type(p) is not Play:
            continue
        n = len(p.cards)
        if n == size:
            found.append(p)
        elif n + p.extras >= size:
            rest = [c for c in hand if c not in p.cards]
            if set(rest) <= set(extra_candidates(hand, p)):
                found.append(p.with_extras(rest))
    if not found:
        return None
    return max(found, key=lambda p: (p.reading.type == "bomb", p.reading.length, p.reading.rank))
