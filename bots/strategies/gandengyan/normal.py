"""Gandengyan `normal`: a club player's heuristic. Every listed play (and a pass when allowed) is
scored by the hand it leaves and by what it risks, and the best score is played:

- the hand left: how many plays it still needs to empty (jokers filling where they help most),
  how many cards it holds, and the 2s and bombs kept to win a trick later;
- the cards still out (the pack less one's own hand and every card played): how likely an
  opponent with one or two cards left can beat a play with its whole hand and go out, so singles
  are not led into a seat holding one card when something else can be led; a seat that passed
  a single holds neither the next rank nor a 2, remembered over the round's log until it draws;
- the draw after an unbeaten play: how likely the hand left plus the card drawn is one
  combination (the next lead goes out); a 2 that leaves only jokers wins when no bomb can be made
  of the cards still out (the 2 stands, the draw pairs with the joker), while any other play that
  leaves only jokers loses the round (the hand forfeits when its turn comes);
- tempo: taking the trick is worth something of its own (our lead next, or cards shed with no
  draw when someone beats us);
- the ×2 and bomb factors: a bomb doubles (and more) every loser's payment, so it is kept for an
  opponent about to go out or for one's own last cards, and a hand of five or more cards pays
  double, so shedding below five matters when someone is close.

The weights were tuned in simulation against `greedy` (bots.strategies.gandengyan.greedy).

It works on a `Seen`, what it looks at in the seat's observation
(games.engine.rulesets.gandengyan.observation), which is built from the engine state the same way
for a bot's turn and in the hard bot's rollouts; the hard bot's reading of the opponents builds
one for each hand an opponent may have held (bots.strategies.gandengyan.belief).
"""

import random
from functools import lru_cache
from typing import NamedTuple

from bots.strategies.going_out import going_out
from games.engine.actions import Action, Play
from games.engine.cards import ACE, JOKER, TWO
from games.engine.combos import Reading
from games.engine.rulesets.gandengyan.combos import BOMB, PAIR, SINGLE, rank_counts
from games.engine.rulesets.gandengyan.observation import Observation
from games.engine.rulesets.gandengyan.settle import PLAYERS

HOPELESS = 99  # plays needed by a hand of jokers only: it forfeits
PLAY = 3.0  # what each further play the hand needs costs
CARD = 1.0  # what each card held costs
TWO_KEPT = 1.2  # a 2 wins a trick of singles or pairs whenever it is needed
BOMB_KEPT = 2.5  # so does a bomb, any trick
BOMB_FACTOR = 8.0  # a bomb doubles every payment: spent only when it matters
JOKER_KEPT = 2.0  # a joker pairs with any card, a straight's gap
LOSS = 5.0  # an opponent going out on our play
SURE = 100.0  # a round won for sure (or lost, negated)
TEMPO = 4.0  # taking the trick: our lead next, or the cards shed without a draw
FINISH_BOMB = 6.0  # the hand left is one bomb: it answers anything, so it goes out next turn
FINISH_TWO = 3.0  # ... a 2 or a pair of 2s: it answers nearly any single or pair
DEAD = 4.0  # ... a 3 or a pair of 3s: it answers nothing and waits for a lead that never comes
CONTROL = 2.0  # a lead nobody beats: we draw, but lead again and the others shed nothing
CHAIN = 2.0  # a single led into a seat holding one card is answered on up the ranks: more chances
FORFEIT = 20.0  # a hand left to forfeit: the round lost
BOMB_ODDS = 0.5  # how likely a 2 stands when a bomb can still be made of the cards out
THREE = 2.0  # for each 3 kept: a 3 answers nothing
NEXT = 8.0  # going out at the next lead
RUN_STANDS = 0.8  # a straight or pair chain is seldom beaten
SHORT_HAND = 4  # a hand this long after the draw is seldom one combination
NEAR_OUT = 2  # an opponent with this many cards or fewer may go out on the next play
DOUBLED = 5  # a hand of this many cards pays double
MAX_SEATS = max(PLAYERS)  # the most players a gandengyan table seats
NOTHING_LACKING = (frozenset(),) * MAX_SEATS
LOWEST = 0  # the rank index of 3s


class Seen(NamedTuple):
    seat: int
    hand: tuple[int, ...]
    counts: tuple[int, ...]  # cards held by every seat still playing this round (0 otherwise)
    top_seat: int | None
    top: Reading | None
    unseen: tuple[int, ...]  # per rank index (13 = jokers): cards in other hands or the pile
    pile: int
    cap: int  # the largest bomb
    # per seat, ranks it holds none of: it passed a single on this trick that they would beat
    lacking: tuple[frozenset[int], ...]


def seen_of(obs: Observation) -> Seen:
    """What the heuristic looks at in a seat's observation."""
    return seen_from(obs.seat, obs.hand, obs.live, obs.trick, obs.to_act, obs.unseen, obs.pile,
                     obs.cap)


def recalled(obs: Observation) -> Seen:
    """`seen_of`, and what the passes of the whole round showed (the round's log): at a bot's
    turn, not in the hard bot's rollouts, which see no log."""
    seen = seen_of(obs)
    if obs.log:
        seen = seen._replace(lacking=remembered(obs.log, seen.lacking))
    return seen


def remembered(log, lacking: tuple[frozenset[int], ...]) -> tuple[frozenset[int], ...]:
    """What every pass of the round showed (not only this trick's): a seat that passed a single
    holds neither the next rank nor a 2 until it draws a card (a hand only loses cards between
    draws)."""
    recall = Recall()
    for event in log:
        recall.see(event)
    return recall.lacking(lacking)


class Recall:
    """`remembered`, event by event: the hard bot's reading of the hands asks what an opponent
    remembered at each of its actions."""

    def __init__(self):
        self.found: dict[int, set[int]] = {}
        self.top: Reading | None = None

    def see(self, event) -> None:
        kind = event.kind
        if kind == "play":
            self.top = event.reading
        elif kind == "pass":
            top = self.top
            if top is not None and top.type == SINGLE and top.rank != TWO:
                self.found.setdefault(event.seat, set()).update({top.rank + 1, TWO})
        elif kind == "trick_won":
            self.top = None
        elif kind == "draw":
            self.found.pop(event.seat, None)

    def lacking(self, lacking: tuple[frozenset[int], ...]) -> tuple[frozenset[int], ...]:
        """`lacking` and what the passes seen so far showed."""
        found = self.found
        if not found:
            return lacking
        return tuple(lacking[s].union(found.get(s, ())) for s in range(MAX_SEATS))


def seen_from(seat: int, hand: tuple[int, ...], live: tuple[int, ...], trick, to_act: int | None,
              unseen: tuple[int, ...], pile: int, cap: int) -> Seen:
    """The same from its parts (the hard bot's rollouts take them from the engine state)."""
    return Seen(
        seat=seat, hand=hand, counts=live,
        top_seat=trick[-1].seat if trick else None, top=trick[-1].reading if trick else None,
        unseen=unseen, pile=pile, cap=cap,
        lacking=lacking_of(passes([t.seat for t in trick], [t.reading for t in trick], to_act,
                                  live)),
    )


def passes(seats: list[int], readings: list[Reading], to_act: int | None,
           counts: tuple[int, ...]) -> list[tuple[int, Reading]]:
    """(seat, play) for every pass on the trick in play, whose plays were made by `seats`:
    seats answer in turn order, so each seat still holding cards between two plays, or between
    the latest play and the seat to act, passed the first of them."""
    if not seats or to_act is None:
        return []
    found = []
    players = len(counts)
    for play, seat, end in zip(readings, seats, [*seats[1:], to_act], strict=True):
        seat = (seat + 1) % players
        while seat != end:
            if counts[seat]:
                found.append((seat, play))
            seat = (seat + 1) % players
    return found


def lacking_of(passed: list[tuple[int, Reading]]) -> tuple[frozenset[int], ...]:
    """Players answer when they can, so a seat that passed a single holds neither the next rank
    nor a 2 (its hand has only lost cards since)."""
    if not passed:
        return NOTHING_LACKING  # most decisions: the rollouts' hot path
    lacking: dict[int, set[int]] = {}
    for seat, play in passed:
        if play.type == SINGLE and play.rank != TWO:
            lacking.setdefault(seat, set()).update({play.rank + 1, TWO})
    return tuple(frozenset(lacking.get(s, ())) for s in range(MAX_SEATS))


def unseen_of(known: tuple[int, ...], decks: int) -> tuple[int, ...]:
    return tuple((2 if r == JOKER else 4) * decks - k for r, k in enumerate(known))


def choose(obs: Observation, rng: random.Random) -> Action:
    return play(recalled(obs), obs.legal)


@lru_cache(maxsize=1 << 16)
def plays_needed(counts: tuple[int, ...], cap: int) -> int:
    """The fewest plays that empty a hand of these rank counts, jokers filling; HOPELESS when
    jokers would be left alone."""
    wild = counts[JOKER]
    low = next((r for r in range(JOKER) if counts[r]), None)
    if low is None:
        return HOPELESS if wild else 0
    best = HOPELESS
    # The lowest rank's cards go together: a single, a pair or a bomb, jokers joining ...
    for added in range(wild + 1):
        size = counts[low] + added
        if size <= 2 or size <= cap:
            rest = (*counts[:low], 0, *counts[low + 1:JOKER], wild - added)
            best = min(best, 1 + plays_needed(rest, cap))
    # ... or they start a straight or a pair chain, jokers filling its gaps.
    for width, shortest in ((1, 3), (2, 2)):
        lacking = 0
        for end in range(low, ACE + 1):
            lacking += max(0, width - counts[end])
            if lacking > wild:
                break
            if end - low + 1 < shortest:
                continue
            rest = list(counts)
            for r in range(low, end + 1):
                rest[r] -= min(width, counts[r])
            rest[JOKER] -= lacking
            best = min(best, 1 + plays_needed(tuple(rest), cap))
    return best


# Cached, as the two below: the hard bot's rollouts score the same small hands and counts of cards
# still out over and over (about a third of a gandengyan search's time before).
@lru_cache(maxsize=1 << 16)
def finish(counts: tuple[int, ...], cap: int) -> float:
    """What the last combination is worth when the hand is one: can it answer others' plays?"""
    real = [r for r in range(JOKER) if counts[r]]
    if len(real) != 1:
        return 0.0
    size = sum(counts)
    if 3 <= size <= cap:
        return FINISH_BOMB
    if size > 2:
        return 0.0
    if real[0] == TWO:
        return FINISH_TWO
    return -DEAD if real[0] == LOWEST else 0.0


@lru_cache(maxsize=1 << 16)
def hand_value(counts: tuple[int, ...], cap: int) -> float:
    """How good a hand is to hold (higher is better), before any draw."""
    size = sum(counts)
    bombs = sum(1 for r in range(JOKER) if counts[r] >= 3)
    return (-PLAY * plays_needed(counts, cap) - CARD * size
            + TWO_KEPT * counts[TWO]
            + BOMB_KEPT * bombs + JOKER_KEPT * counts[JOKER] - THREE * counts[LOWEST])


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def goes_out_on(reading: Reading, cards: int, unseen: tuple[int, ...],
                lacking: frozenset[int] = frozenset()) -> float:
    """How likely an opponent holding `cards` cards beats `reading` with its whole hand (cards
    drawn at random from those still out); 0 for hands of 3 or more (rare, ignored)."""
    if reading.rank == TWO or cards > NEAR_OUT:
        return 0.0
    total = sum(unseen)
    if total < cards:
        return 0.0
    targets = (TWO,) if reading.rank + 1 == TWO else (reading.rank + 1, TWO)
    if cards == 1 and reading.type == SINGLE:
        return CHAIN * _share(unseen, targets, lacking)
    if cards == 2 and reading.type == PAIR:
        jokers = unseen[JOKER]
        return sum(_pairs(unseen[t]) + unseen[t] * jokers for t in targets) / _pairs(total)
    return 0.0


@lru_cache(maxsize=1 << 16)
def _share(unseen: tuple[int, ...], ranks: tuple[int, ...], lacking=frozenset()) -> float:
    """The chance that one card of an opponent's hand has one of `ranks`, knowing it holds none
    of `lacking`."""
    total = sum(unseen) - sum(unseen[r] for r in lacking)
    return sum(unseen[r] for r in ranks if r not in lacking) / total if total > 0 else 0.0


def danger(seen: Seen, reading: Reading, seats) -> float:
    """The chance that one of `seats` goes out on `reading` (summed: small numbers)."""
    return sum(goes_out_on(reading, seen.counts[s], seen.unseen, seen.lacking[s]) for s in seats)


def _unbeatable(reading: Reading) -> bool:
    return reading.type in (SINGLE, PAIR) and reading.rank == TWO


def _bomb_out(seen: Seen) -> bool:
    """Some bomb can be made of the cards still out."""
    jokers = seen.unseen[JOKER]
    return any(n and n + jokers >= 3 for n in seen.unseen[:JOKER])


def stands(seen: Seen, reading: Reading, others: list[int]) -> float:
    """How likely nobody beats `reading` (bombs aside): each opponent's cards drawn at random
    from those still out."""
    if reading.type == BOMB or _unbeatable(reading):
        return 1.0
    unseen = seen.unseen
    total = sum(unseen)
    if reading.type == SINGLE:
        beaters = (TWO,) if reading.rank + 1 >= TWO else (reading.rank + 1, TWO)
        chance = 1.0
        for s in others:
            chance *= (1 - _share(unseen, beaters, seen.lacking[s])) ** seen.counts[s]
        return chance
    if reading.type == PAIR:
        if total < 2:
            return 1.0  # one card never beats a pair
        targets = (TWO,) if reading.rank + 1 == TWO else (reading.rank + 1, TWO)
        jokers = unseen[JOKER]
        pair = sum(_pairs(unseen[t]) + unseen[t] * jokers for t in targets) / _pairs(total)
        chance = 1.0
        for s in others:
            chance *= max(0.0, 1 - _pairs(seen.counts[s]) * pair)
        return chance
    return RUN_STANDS


def out_next(seen: Seen, left: tuple[int, ...]) -> float:
    """How likely the hand `left`, after the draw that follows an unbeaten play, is one
    combination: the next lead goes out."""
    if sum(left) >= SHORT_HAND:
        return 0.0
    if not seen.pile:
        return 1.0 if plays_needed(left, seen.cap) == 1 else 0.0
    completing = _completing(left, seen.cap)
    return sum(seen.unseen[r] for r in completing) / sum(seen.unseen) if completing else 0.0


@lru_cache(maxsize=1 << 14)
def _completing(left: tuple[int, ...], cap: int) -> tuple[int, ...]:
    """The ranks whose card, drawn, makes `left` one combination."""
    return tuple(r for r in range(JOKER + 1)
                 if plays_needed((*left[:r], left[r] + 1, *left[r + 1:]), cap) == 1)


def score(seen: Seen, action: Action, others: list[int], near: bool) -> float:
    hand = seen.hand
    cap = seen.cap
    if not isinstance(action, Play):
        # A pass keeps the hand; the play on the table stays there for the seats after us.
        after = others[:others.index(seen.top_seat)] if seen.top_seat in others else others
        counts = rank_counts(hand)
        return (hand_value(counts, cap) + finish(counts, cap)
                - LOSS * danger(seen, seen.top, after))
    played = set(action.cards)
    left = rank_counts([c for c in hand if c not in played])
    reading = action.reading
    standing = stands(seen, reading, others)
    if sum(left) == left[JOKER]:
        # Only jokers left: the hand forfeits if the play is beaten (or the pile is empty); if it
        # stands, the draw makes one combination with the jokers and the next lead goes out.
        if not seen.pile:
            return -SURE
        if _unbeatable(reading) and _bomb_out(seen):
            standing = BOMB_ODDS
        return SURE * standing - FORFEIT * (1 - standing)
    last = finish(left, cap)
    if last < 0:
        last *= 1 - standing  # a play that stands gives us the lead: nothing is stuck
    total = (hand_value(left, cap) + last - LOSS * danger(seen, reading, others)
             + (NEXT * out_next(seen, left)
                + (CONTROL if seen.top is None and reading.type != BOMB and reading.rank != TWO
                   else 0)) * standing)
    if reading.type == BOMB:
        total -= 0 if near else BOMB_FACTOR * (reading.length - 2)
    elif seen.top is not None:
        total += TEMPO
    if near and sum(left) < DOUBLED <= len(hand):
        total += CARD  # below five cards: half the payment if the round is lost
    return total


def ranked(seen: Seen, legal: list[Action]) -> list[Action]:
    """The listed actions, best first (a play that empties the hand always first); the order of
    the listing breaks ties (lower ranks first)."""
    out = going_out(seen.hand, legal)
    if out is not None:
        return [out]  # it empties the hand: the round is won
    seats = len(seen.counts)
    # Opponents in turn order from us: the first answers first.
    others = [s % seats for s in range(seen.seat + 1, seen.seat + seats) if seen.counts[s % seats]]
    near = threatened(seen)
    scores = {a: score(seen, a, others, near) for a in legal}
    return sorted(legal, key=lambda a: -scores[a])


def play(seen: Seen, legal: list[Action]) -> Action:
    if len(legal) == 1:
        return legal[0]
    return ranked(seen, legal)[0]


def threatened(seen: Seen) -> bool:
    """An opponent is about to go out, or our own hand is nearly empty: a bomb may be worth it."""
    others = [n for s, n in enumerate(seen.counts) if s != seen.seat and n]
    return any(n <= NEAR_OUT for n in others) or len(seen.hand) <= NEAR_OUT + 1
