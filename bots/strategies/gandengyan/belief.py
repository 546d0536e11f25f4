"""What the round's public log says of each hidden hand, for the hard bot's samples.

Players act on their hands, so their actions tell something of them: a seat that led a 9 single
holds no lower card it would rather shed, a seat that passed a 7 holds no 8. The bot reads each
opponent as a `normal` player (the best model of a player it has: it sheds low cards first,
keeps 2s and jokers, answers when it can) and asks, of a hand the opponent may hold, whether its
actions since its last draw are those that hand would have made. Since its last draw the hand has
only lost the cards it played, so its hand at each of those actions is known exactly from its
hand now. A hand that explains every one of them is weighted 1, and each action it does not
explain multiplies the weight by MISS: a person is not `normal`, and a few surprising actions
should not rule a hand out. What the opponent knew then is rebuilt as `normal` has it: the trick,
the cards played, and what the round's passes showed of the other hands (`normal.Recall`).

A sample draws, for each opponent in turn, hands from the cards still unplaced one at a time and
keeps the first it accepts, each with probability its weight (rejection sampling: the hands kept
follow the weights, and a hand that explains everything is kept at once, so few hands are weighed
per opponent; a hand is rejected at its first unexplained action but for a chance of MISS, before
the rest are replayed). When none is accepted within CANDIDATES draws (few hands explain
everything), one of those drawn is kept in proportion to its weight. Weights depend only on the
ranks held, so they are cached once per decision.
"""

import random
from typing import NamedTuple

from bots.strategies.gandengyan import normal
from games.engine.actions import Action, Pass, Play
from games.engine.cards import RANK_OF, make_pack
from games.engine.combos import Reading
from games.engine.rulesets.gandengyan.combos import bomb_cap, legal_plays, rank_counts
from games.engine.rulesets.gandengyan.observation import Observation
from games.engine.rulesets.gandengyan.state import HAND_SIZE, Match, sort_hand

CANDIDATES = 16
MISS = 0.01  # the weight kept for each action a hand does not explain
MOST_MISSES = 100  # counted further, the weights would round to 0
PASS = Pass()


class Moment(NamedTuple):
    """One action of an opponent since its last draw, and what it saw then."""

    later: tuple[int, ...]  # the cards it has played since (this action's included)
    counts: tuple[int, ...]
    top_seat: int | None
    top: Reading | None
    played: tuple[int, ...]  # rank counts of the cards played before
    pile: int
    lacking: tuple[frozenset[int], ...]  # what it knew of the others' hands from their passes
    made: tuple | None  # the play's ranks and reading; None: a pass


def _made(cards, reading: Reading) -> tuple:
    return tuple(sorted(RANK_OF[c] for c in cards)), reading


def moments(seen: Observation) -> dict[int, list[Moment]] | None:
    """Every opponent's actions since its last draw, replayed from the round's log; None when
    the log does not account for the hands (a state saved before the log was kept)."""
    me = seen.seat
    counts = [0 if out else HAND_SIZE for out in seen.eliminated]
    pile = len(make_pack(seen.decks)) - sum(counts)
    out = [False] * seen.players
    played = (0,) * len(rank_counts(()))  # rank counts of the cards played so far
    trick: list[tuple[int, Reading]] = []
    found: dict[int, list[tuple]] = {}
    recall = normal.Recall()  # the round's passes, as a `normal` player remembers them
    for event in seen.log:
        kind, seat = event.kind, event.seat
        play = None
        if kind == "play":
            play = event.cards, event.reading
        if kind == "draw":
            counts[seat] += 1
            pile -= 1
            found.pop(seat, None)  # what it did before is read on another hand
        elif kind == "trick_won":
            trick = []
        elif kind == "forfeit":
            out[seat] = True
        elif seat != me:
            live = tuple(0 if gone else n for n, gone in zip(counts, out, strict=True))
            found.setdefault(seat, []).append((play, live, tuple(trick), played, pile,
                                               recall.lacking(normal.NOTHING_LACKING)))
        recall.see(event)
        if play is not None:
            counts[seat] -= len(play[0])
            played = tuple(a + b for a, b in zip(played, rank_counts(play[0]), strict=True))
            trick.append((seat, play[1]))
    if counts != list(seen.counts) or pile != seen.pile:
        return None
    return {seat: _moments(seat, actions) for seat, actions in found.items()}


def _moments(seat: int, actions: list[tuple]) -> list[Moment]:
    result = []
    later: tuple[int, ...] = ()
    for play, live, trick, played, pile, recalled in reversed(actions):
        made = None
        if play is not None:
            later += play[0]
            made = _made(*play)
        passed = normal.passes([s for s, _ in trick], [r for _, r in trick], seat, live)
        lacking = tuple(a | b for a, b in zip(normal.lacking_of(passed), recalled, strict=True))
        result.append(Moment(later, live, trick[-1][0] if trick else None,
                             trick[-1][1] if trick else None, played, pile, lacking, made))
    return result


class Belief:
    """The weights of the hands each opponent may hold, given its actions, for one
    observation."""

    def __init__(self, seen: Observation):
        self.seen = seen
        self.moments = moments(seen) or {}
        self.decks = seen.decks
        self.cap = bomb_cap(self.decks)
        self.weights: dict[tuple, float] = {}

    def weight(self, seat: int, hand: tuple[int, ...]) -> float:
        key = (seat, tuple(sorted(RANK_OF[c] for c in hand)))
        if key not in self.weights:
            misses = sum(not explained for explained in self._explains(seat, hand))
            self.weights[key] = MISS ** min(misses, MOST_MISSES)
        return self.weights[key]

    def accepts(self, seat: int, hand: tuple[int, ...], rng: random.Random) -> bool:
        """True with probability `weight(seat, hand)`: each action the hand does not explain is
        a chance of MISS to go on, so most hands are rejected at their first miss, before the
        rest of their actions are replayed (the costliest part of a sample)."""
        key = (seat, tuple(sorted(RANK_OF[c] for c in hand)))
        if key in self.weights:
            return rng.random() < self.weights[key]
        misses = 0
        for explained in self._explains(seat, hand):
            if not explained:
                misses += 1
                if rng.random() >= MISS:
                    return False
        self.weights[key] = MISS ** min(misses, MOST_MISSES)
        return True

    def _explains(self, seat: int, hand: tuple[int, ...]):
        """For each action of `seat` since its last draw, whether `hand` would have made it."""
        for m in self.moments.get(seat, ()):
            held = sort_hand(hand + m.later)
            legal: list[Action] = list(legal_plays(held, m.top, self.cap))
            if m.top is not None:
                legal.append(PASS)
            chosen = legal[0] if len(legal) == 1 else normal.play(self._seen(seat, held, m), legal)
            if isinstance(chosen, Play):
                yield m.made is not None and _made(chosen.cards, chosen.reading) == m.made
            else:
                yield m.made is None

    def _seen(self, seat: int, held: tuple[int, ...], m: Moment) -> normal.Seen:
        known = tuple(a + b for a, b in zip(rank_counts(held), m.played, strict=True))
        return normal.Seen(seat=seat, hand=held, counts=m.counts, top_seat=m.top_seat, top=m.top,
                           unseen=normal.unseen_of(known, self.decks), pile=m.pile,
                           cap=self.cap, lacking=m.lacking)

    def deal(self, world: Match, rng: random.Random) -> Match:
        """`world` (a uniform sample of the observation) with each opponent's hand drawn by
        weight from the cards not yet placed."""
        rnd = world.round
        hands = list(rnd.hands)
        seats = [s for s in self.moments if hands[s] and not rnd.forfeited[s]]
        rng.shuffle(seats)
        pool = [c for s in seats for c in hands[s]] + list(rnd.pile)
        for seat in seats:
            drawn = []
            for _ in range(CANDIDATES):
                hand = tuple(rng.sample(pool, len(hands[seat])))
                if self.accepts(seat, hand, rng):
                    break
                drawn.append(hand)
            else:
                hand = rng.choices(drawn, [self.weight(seat, h) for h in drawn])[0]
            hands[seat] = sort_hand(hand)
            pool = [c for c in pool if c not in hand]
        rng.shuffle(pool)
        return world._replace(round=rnd._replace(hands=tuple(hands), pile=tuple(pool)))
