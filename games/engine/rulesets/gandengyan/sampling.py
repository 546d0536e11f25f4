"""Determinization for gandengyan search bots: a full engine state built from one seat's
observation, the cards it cannot see dealt at random, consistently with everything public.

Public facts kept: the seat's own hand, the cards played this round, every hand's size and the
pile's, the table, who forfeited (a forfeited hand holds only jokers), who has played, the bombs
so far, the dice, scores, eliminations and the round's log. Passing is always allowed, so a pass
reveals nothing certain and no voids are inferred here (the hard bot weighs what actions suggest:
bots.strategies.gandengyan.belief). The pile's order is unknown: it is shuffled too.
"""

import random

from games.engine.cards import JOKER, RANK_OF, make_pack
from games.engine.rulesets.gandengyan.observation import Observation
from games.engine.rulesets.gandengyan.state import Match, Round, sort_hand


def sample_state(seen: Observation, rng: random.Random) -> Match:
    """One full state the observation could come from (a round in play)."""
    me = seen.seat
    counts, forfeited = seen.counts, seen.forfeited
    own = list(seen.hand)
    known = set(own).union(seen.played)
    unseen = [c for c in make_pack(seen.decks) if c not in known]
    rng.shuffle(unseen)
    jokers = [c for c in unseen if RANK_OF[c] == JOKER]
    others = [seat for seat in range(seen.players) if seat != me]
    hands: list[list[int]] = [[] for _ in counts]
    hands[me] = own
    for seat in others:
        if forfeited[seat]:
            hands[seat] = jokers[: counts[seat]]
            del jokers[: counts[seat]]
    taken = {c for hand in hands for c in hand}
    unseen = [c for c in unseen if c not in taken]
    for seat in others:
        if not forfeited[seat]:
            hands[seat] = unseen[: counts[seat]]
            del unseen[: counts[seat]]
    rnd = Round(
        number=seen.number,
        seated=seen.seated,
        hands=tuple(sort_hand(hand) for hand in hands),
        pile=tuple(unseen),
        dice=seen.dice,
        leader=seen.leader,
        to_act=seen.to_act,
        trick=seen.trick,
        forfeited=forfeited,
        played_any=seen.played_any,
        bombs=seen.bombs,
        winner=None,
        log=seen.log,
    )
    return Match(
        decks=seen.decks,
        players=seen.players,
        starting_score=seen.starting_score,
        humans=seen.humans,
        scores=seen.scores,
        eliminated=seen.eliminated,
        round=rnd,
    )
