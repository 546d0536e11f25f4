"""Determinization for 510k search bots: a full engine state built from one seat's observation,
the cards it cannot see dealt at random, consistently with everything public.

Public facts kept: the seat's own hand, the cards played this round, every hand's size, the 明牌
(its holder keeps it until it is played), the trick on the table and its passes, bids, banker,
teams, seating, captured points and finishing order. A pass reveals nothing certain in 510k
(passing is always allowed), so no voids are inferred. The 喜 bombs already played are not
recorded in the sample, which shifts every candidate's outcome alike.
"""

import random

from games.engine.rulesets.five_ten_k.combos import PACK
from games.engine.rulesets.five_ten_k.observation import Observation
from games.engine.rulesets.five_ten_k.state import Match, Round


def sample_state(seen: Observation, rng: random.Random) -> Match:
    """One full state the observation could come from (bid or play phase)."""
    me = seen.seat
    players = seen.options.players
    own = tuple(sorted(seen.hand))
    known = set(own).union(seen.played)
    unseen = [c for c in PACK if c not in known]
    rng.shuffle(unseen)
    hands: list[list[int]] = [[] for _ in range(players)]
    hands[me] = list(own)
    if seen.face_up is not None and seen.face_up in unseen and seen.holder != me:
        unseen.remove(seen.face_up)
        hands[seen.holder].append(seen.face_up)
    for seat in range(players):
        if seat != me:
            need = seen.counts[seat] - len(hands[seat])
            hands[seat].extend(unseen[:need])
            del unseen[:need]
    rnd = Round(
        number=seen.number,
        cutter=seen.cutter,
        seating=seen.seating,
        deck=(),
        random_cut=0,
        phase=seen.phase,
        to_act=seen.to_act,
        hands=tuple(tuple(sorted(h)) for h in hands),
        captured=seen.captured,
        xi_played=((),) * players,
        bottom=tuple(unseen),  # two players: what is left is the bottom
        cut_position=seen.cut_position,
        face_up=seen.face_up,
        holder=seen.holder,
        bids=seen.bids,
        banker=seen.banker,
        teams=seen.teams,
        trick=seen.trick,
        passes=seen.passes,
        finished=seen.finished,
    )
    return Match(options=seen.options, humans=seen.humans, scores=seen.scores, round=rnd)
