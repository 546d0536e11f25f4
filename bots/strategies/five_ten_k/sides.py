"""For simulations only: the partnerships a four-player 510k deal makes, as soon as the cut has
fixed them (the 明牌's holder and the holder of its twin), so that the referee can seat one
level's team on each side before anyone bids. Bots never call this: it reads every hand."""

from games.engine.cards import PER_DECK
from games.engine.rulesets.five_ten_k.state import Match


def partners(state: Match) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """(the face-up holder's side, the other side) once the cut is made, None before it and in
    two-player rounds. A 包庄 bid later splits a side: the referee scores that round by the
    banker's side (see bots.simulation)."""
    rnd = state.round
    if state.options.players != 4 or rnd.face_up is None:
        return None
    holder = rnd.holder
    twin = (rnd.face_up + PER_DECK) % (2 * PER_DECK)
    twin_holder = next(s for s, hand in enumerate(rnd.hands) if twin in hand)
    seating = rnd.seating
    if twin_holder == holder:
        twin_holder = seating[(seating.index(holder) + 2) % 4]
    ours = (holder, twin_holder)
    return ours, tuple(s for s in seating if s not in ours)
