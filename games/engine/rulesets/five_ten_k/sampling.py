"""Determinization for 510k search bots: a full engine state built from one seat's view, the cards
it cannot see dealt at random, consistently with everything public.

Public facts kept: the seat's own hand, the cards played this round (`view["played"]`), every
hand's size, the 明牌 (its holder keeps it until it is played), the trick on the table, bids,
banker, teams, seating, captured points and finishing order. A pass reveals nothing certain in
510k (passing is always allowed), so no voids are inferred. The 喜 bombs already played are not
in the view; the sample has none recorded, which shifts every candidate's outcome alike.
"""

import random

from games.engine.combos import Reading
from games.engine.rulesets.five_ten_k.combos import PACK
from games.engine.rulesets.five_ten_k.state import Match, Options, Round, TablePlay


def _ids(cards) -> list[int]:
    return [card["id"] for card in cards]


def _passes(seating: tuple[int, ...], counts: list[int], latest: int, to_act: int) -> int:
    """Passes in a row since the latest play: every seat holding cards between its player and
    the seat to act passed."""
    passes = 0
    index = seating.index(latest)
    for step in range(1, len(seating)):
        seat = seating[(index + step) % len(seating)]
        if seat == to_act:
            return passes
        if counts[seat]:
            passes += 1
    return passes


def sample_state(view: dict, rng: random.Random) -> Match:
    """One full state the view could come from (bid or play phase)."""
    me = view["seat"]
    players = view["players"]
    counts = list(view["counts"])
    own = tuple(sorted(_ids(view["hand"])))
    seen = set(own).union(_ids(view["played"]))
    unseen = [c for c in PACK if c not in seen]
    rng.shuffle(unseen)
    hands: list[list[int]] = [[] for _ in range(players)]
    hands[me] = list(own)
    face_up = view["face_up"]
    if face_up is not None:
        card, holder = face_up["card"]["id"], face_up["holder"]
        if card in unseen and holder != me:
            unseen.remove(card)
            hands[holder].append(card)
    for seat in range(players):
        if seat != me:
            need = counts[seat] - len(hands[seat])
            hands[seat].extend(unseen[:need])
            del unseen[:need]
    trick = tuple(
        TablePlay(p["seat"], tuple(_ids(p["cards"])), Reading.from_dict(p["reading"]))
        for p in view["trick"]
    )
    seating = tuple(view["seating"])
    to_act = view["to_act"]
    rnd = Round(
        number=view["round"],
        cutter=view["cutter"],
        seating=seating,
        deck=(),
        random_cut=0,
        phase=view["phase"],
        to_act=to_act,
        hands=tuple(tuple(sorted(h)) for h in hands),
        captured=tuple(view["captured"]),
        xi_played=((),) * players,
        bottom=tuple(unseen),  # two players: what is left is the bottom
        cut_position=view["cut_position"],
        face_up=None if face_up is None else face_up["card"]["id"],
        holder=None if face_up is None else face_up["holder"],
        bids=tuple((b["seat"], b["solo"]) for b in view["bids"]),
        banker=view["banker"],
        teams=tuple(tuple(t) for t in view["teams"]),
        trick=trick,
        passes=_passes(seating, counts, trick[-1].seat, to_act) if trick else 0,
        finished=tuple(view["finished"]),
    )
    return Match(options=Options(**view["options"]), humans=tuple(view["humans"]),
                 scores=tuple(view["scores"]), round=rnd)
