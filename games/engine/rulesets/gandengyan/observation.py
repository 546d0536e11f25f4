"""What one seat may know of a gandengyan round, as one frozen value: what a bot decides on (as
OpenSpiel's observers give a player). Built from the engine state by `observe`, once per decision,
and the same way in the search's rollouts; nothing in it depends on the cards the seat cannot see
(a test swaps hidden cards between the other seats and the pile and compares)."""

from functools import cache
from typing import NamedTuple

from games.engine.actions import Action
from games.engine.cards import make_pack
from games.engine.combos import Reading
from games.engine.rulesets.gandengyan import RULESET
from games.engine.rulesets.gandengyan.combos import bomb_cap, rank_counts
from games.engine.rulesets.gandengyan.state import Logged, Match, Round, TablePlay


class Observation(NamedTuple):
    seat: int
    legal: tuple[Action, ...]
    hand: tuple[int, ...]
    decks: int
    players: int
    starting_score: int
    humans: tuple[bool, ...]
    scores: tuple[int, ...]
    eliminated: tuple[bool, ...]
    number: int  # the round's
    seated: tuple[bool, ...]  # dealt into this round
    counts: tuple[int, ...]  # cards in each hand
    live: tuple[int, ...]  # cards held by each seat still playing this round (0 otherwise)
    pile: int  # cards left to draw
    played: frozenset[int]  # cards that left the hands this round: every play was seen
    unseen: tuple[int, ...]  # per rank index (13 = jokers): cards in other hands or the pile
    dice: tuple[int, ...]
    leader: int
    to_act: int | None
    trick: tuple[TablePlay, ...]
    forfeited: tuple[bool, ...]
    played_any: tuple[bool, ...]
    bombs: tuple[int, ...]
    log: tuple[Logged, ...]  # the round's public events, oldest first

    @property
    def top_seat(self) -> int | None:
        """Who played the trick's latest play (None: a free lead)."""
        return self.trick[-1].seat if self.trick else None

    @property
    def top(self) -> Reading | None:
        return self.trick[-1].reading if self.trick else None

    @property
    def cap(self) -> int:
        """The largest bomb."""
        return bomb_cap(self.decks)


@cache
def _pack(decks: int) -> frozenset[int]:
    return frozenset(make_pack(decks))


def live_counts(rnd: Round) -> tuple[int, ...]:
    """Cards held by each seat still playing the round (0 otherwise)."""
    return tuple(0 if out or not dealt else len(hand)
                 for hand, out, dealt in zip(rnd.hands, rnd.forfeited, rnd.seated, strict=True))


def unseen_by(rnd: Round, seat: int) -> tuple[int, ...]:
    """Per rank, the cards `seat` cannot see: a public count (the pack less its own hand and the
    cards played), taken here from the hidden cards because that is cheaper."""
    return rank_counts(rnd.pile + tuple(c for s, hand in enumerate(rnd.hands) if s != seat
                                        for c in hand))


def observe(match: Match, seat: int, legal: list[Action] | None = None) -> Observation:
    """`seat`'s observation of the round in play; `legal`, when the caller listed the seat's
    actions already, spares listing them again."""
    rnd = match.round
    if legal is None:
        legal = RULESET.legal_actions(match, seat)
    hands = rnd.hands
    # Positional, in the order of the fields: built at every step of the search's rollouts, where
    # naming 24 fields would cost more than the rest of this function.
    return Observation(
        seat, tuple(legal), hands[seat],  # seat, legal, hand
        match.decks, match.players, match.starting_score,  # decks, players, starting_score
        match.humans, match.scores, match.eliminated,  # humans, scores, eliminated
        rnd.number, rnd.seated,  # number, seated
        tuple(len(hand) for hand in hands),  # counts
        live_counts(rnd), len(rnd.pile),  # live, pile
        _pack(match.decks).difference(rnd.pile, *hands),  # played
        unseen_by(rnd, seat),  # unseen
        rnd.dice, rnd.leader, rnd.to_act, rnd.trick,  # dice, leader, to_act, trick
        rnd.forfeited, rnd.played_any, rnd.bombs, rnd.log,  # forfeited, played_any, bombs, log
    )
