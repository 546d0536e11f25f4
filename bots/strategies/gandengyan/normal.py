"""Gandengyan `normal`: a sound heuristic. Lead the play that sheds the most cards for the least
worth; answer with the cheapest beating play when it costs little, keeping 2s and bombs for an
opponent about to go out or for one's own last cards; spend a joker where it lets the most real
cards go (a longer straight or chain, a bigger bomb), and never keep one to the end: a hand left
with only jokers forfeits the round.

It works on a `Seen`, built either from the seat's view (the bot) or from an engine state (the
hard bot's rollouts).
"""

import random
from typing import NamedTuple

from games.engine.actions import Action, Pass, Play
from games.engine.cards import JOKER, RANK_OF
from games.engine.combos import Reading
from games.engine.rulesets.gandengyan.state import Match

# What spending one card of a rank costs (indexes 0 = '3' .. 12 = '2', 13 = joker): high cards
# win tricks, and a 2 beats any single or pair but a 2.
KEEP = (0, 0, 0, 0, 0, 0, 0, 0, 0.5, 1, 1.5, 2, 4, 3)
SHED = 2  # the gain of each card a play sheds
BOMB_COST = 6  # a bomb doubles (and more) every loser's payment: kept for when it matters
BOMB_SIZE_COST = 1
JOKERS_ONLY = 15  # a hand left with only jokers forfeits
NEAR_OUT = 2  # an opponent with this many cards or fewer may go out on the next lead
URGENT = 8
SHORT_HAND = 3


class Seen(NamedTuple):
    seat: int
    hand: tuple[int, ...]
    counts: tuple[int, ...]  # cards held by every seat still playing this round (0 otherwise)
    top_seat: int | None
    top: Reading | None


def seen_from_view(view: dict) -> Seen:
    trick = view["trick"]
    latest = trick[-1] if trick else None
    return Seen(
        seat=view["seat"],
        hand=tuple(card["id"] for card in view["hand"]),
        counts=tuple(0 if out or gone else n for n, out, gone in
                     zip(view["counts"], view["forfeited"], view["eliminated"], strict=True)),
        top_seat=None if latest is None else latest["seat"],
        top=None if latest is None else Reading.from_dict(latest["reading"]),
    )


def seen_from_state(match: Match, seat: int) -> Seen:
    rnd = match.round
    latest = rnd.trick[-1] if rnd.trick else None
    return Seen(
        seat=seat,
        hand=rnd.hands[seat],
        counts=tuple(0 if out or not dealt else len(hand)
                     for hand, out, dealt in zip(rnd.hands, rnd.forfeited, rnd.seated,
                                                 strict=True)),
        top_seat=None if latest is None else latest.seat,
        top=None if latest is None else latest.reading,
    )


def choose(view: dict, legal: list[Action], rng: random.Random) -> Action:
    return play(seen_from_view(view), legal)


def cost(play: Play, hand: tuple[int, ...]) -> float:
    """What a play spends, less what it sheds."""
    total = sum(KEEP[RANK_OF[c]] for c in play.cards) - SHED * len(play.cards)
    if play.reading.type == "bomb":
        total += BOMB_COST + BOMB_SIZE_COST * play.reading.length
    left = [c for c in hand if c not in play.cards]
    if left and all(RANK_OF[c] == JOKER for c in left):
        total += JOKERS_ONLY
    return total


def play(seen: Seen, legal: list[Action]) -> Action:
    hand = seen.hand
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return Pass()
    for p in plays:
        if len(p.cards) == len(hand):
            return p  # it empties the hand: the round is won
    best = min(plays, key=lambda p: (cost(p, hand), p.reading.rank))
    if seen.top is None:
        return best
    threshold = 0.5
    # Seats still holding cards: a play left on the table by a forfeited seat is no threat.
    others = [n for s, n in enumerate(seen.counts) if s != seen.seat and n]
    if others and min(others) <= NEAR_OUT:
        threshold += URGENT
    if len(hand) <= SHORT_HAND:
        threshold += SHORT_HAND
    return best if cost(best, hand) <= threshold else Pass()
