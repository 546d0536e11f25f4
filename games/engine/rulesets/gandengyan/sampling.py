"""Determinization for gandengyan search bots: a full engine state built from one seat's view, the
cards it cannot see dealt at random, consistently with everything public.

Public facts kept: the seat's own hand, the cards played this round (`view["played"]`), every
hand's size and the pile's, the table, who forfeited (a forfeited hand holds only jokers), who
has played, the bombs so far, the dice, scores, eliminations and the round's log. Passing is
always allowed, so a pass reveals nothing certain and no voids are inferred here (the hard bot
weighs what actions suggest: bots.strategies.gandengyan.belief). The pile's order is unknown:
it is shuffled too.
"""

import random

from games.engine.cards import JOKER, RANK_OF, make_pack
from games.engine.combos import Reading
from games.engine.rulesets.gandengyan.state import Logged, Match, Round, TablePlay, sort_hand


def _ids(cards) -> list[int]:
    return [card["id"] for card in cards]


def _logged(event: dict) -> Logged:
    reading = event["reading"]
    return Logged(event["type"], event["seat"], tuple(_ids(event["cards"])),
                  None if reading is None else Reading.from_dict(reading))


def sample_state(view: dict, rng: random.Random) -> Match:
    """One full state the view could come from (a round in play)."""
    me = view["seat"]
    options = view["options"]
    counts, forfeited = view["counts"], view["forfeited"]
    own = _ids(view["hand"])
    seen = set(own).union(_ids(view["played"]))
    unseen = [c for c in make_pack(options["decks"]) if c not in seen]
    rng.shuffle(unseen)
    jokers = [c for c in unseen if RANK_OF[c] == JOKER]
    others = [seat for seat in range(view["players"]) if seat != me]
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
    trick = tuple(
        TablePlay(t["seat"], tuple(_ids(t["cards"])), Reading.from_dict(t["reading"]))
        for t in view["trick"]
    )
    rnd = Round(
        number=view["round"],
        seated=tuple(not out for out in view["eliminated"]),
        hands=tuple(sort_hand(hand) for hand in hands),
        pile=tuple(unseen),
        dice=tuple(view["dice"]),
        leader=view["leader"],
        to_act=view["to_act"],
        trick=trick,
        forfeited=tuple(forfeited),
        played_any=tuple(view["played_any"]),
        bombs=tuple(view["bombs"]),
        winner=None,
        log=tuple(_logged(e) for e in view["log"]),
    )
    return Match(
        decks=options["decks"],
        players=options["players"],
        starting_score=options["starting_score"],
        humans=tuple(view["humans"]),
        scores=tuple(view["scores"]),
        eliminated=tuple(view["eliminated"]),
        round=rnd,
    )
