"""Determinization for gandengyan search bots: a full engine state built from one seat's view, the
cards it cannot see dealt at random, consistently with everything public.

Public facts kept: the seat's own hand, the cards played this round (`view["played"]`), every
hand's size and the pile's, the table, who forfeited (a forfeited hand holds only jokers), who
has played, the bombs so far, the dice, scores and eliminations. Passing is always allowed, so a
pass reveals nothing certain and no voids are inferred. The pile's order is unknown: it is
shuffled too.
"""

import random

from games.engine.cards import JOKER, RANK_OF, make_pack
from games.engine.combos import Reading
from games.engine.rulesets.gandengyan.state import Match, Round, TablePlay, sort_hand


def _ids(cards) -> list[int]:
    return [card["id"] for card in cards]


def sample_state(view: dict, rng: random.Random) -> Match:
    """One full state the view could come from (a round in play)."""
    me = view["seat"]
    options = view["options"]
    seats = view["seats"]
    own = _ids(view["hand"])
    seen = set(own).union(_ids(view["played"]))
    unseen = [c for c in make_pack(options["decks"]) if c not in seen]
    rng.shuffle(unseen)
    jokers = [c for c in unseen if RANK_OF[c] == JOKER]
    hands: list[list[int]] = [[] for _ in seats]
    hands[me] = own
    for info in seats:
        if info["seat"] != me and info["forfeited"]:
            hands[info["seat"]] = jokers[: info["cards"]]
            del jokers[: info["cards"]]
    taken = {c for hand in hands for c in hand}
    unseen = [c for c in unseen if c not in taken]
    for info in seats:
        seat = info["seat"]
        if seat != me and not info["forfeited"]:
            hands[seat] = unseen[: info["cards"]]
            del unseen[: info["cards"]]
    table = tuple(
        TablePlay(t["seat"], tuple(_ids(t["cards"])), Reading.from_dict(t["reading"]))
        for t in view["table"]
    )
    rnd = Round(
        number=view["round"],
        seated=tuple(not info["eliminated"] for info in seats),
        hands=tuple(sort_hand(hand) for hand in hands),
        pile=tuple(unseen),
        dice=tuple(view["dice"]),
        leader=view["leader"],
        to_act=view["to_act"],
        table=table,
        forfeited=tuple(info["forfeited"] for info in seats),
        played_any=tuple(info["played_any"] for info in seats),
        bombs=tuple(view["bombs"]),
        winner=None,
    )
    return Match(
        decks=options["decks"],
        players=options["players"],
        starting_score=options["starting_score"],
        humans=tuple(info["human"] for info in seats),
        scores=tuple(view["scores"]),
        eliminated=tuple(info["eliminated"] for info in seats),
        round=rnd,
    )
