"""What one seat may know of a 510k round, as one frozen value: what a bot decides on (as
OpenSpiel's observers give a player). Built from the engine state by `observe`, once per decision,
and the same way in the search's rollouts; nothing in it depends on the cards the seat cannot see
(a test swaps hidden cards between the other seats and compares)."""

from typing import NamedTuple

from games.engine.actions import Action
from games.engine.combos import Reading
from games.engine.rulesets.five_ten_k import round as flow
from games.engine.rulesets.five_ten_k.combos import PACK, points_of
from games.engine.rulesets.five_ten_k.state import Match, Options, TablePlay

_PACK = frozenset(PACK)


class Observation(NamedTuple):
    seat: int
    legal: tuple[Action, ...]
    hand: tuple[int, ...]
    phase: str  # the round's own: cut, bid, play
    options: Options
    humans: tuple[bool, ...]
    scores: tuple[int, ...]
    number: int  # the round's
    cutter: int
    cut_position: int | None
    seating: tuple[int, ...]
    to_act: int | None
    counts: tuple[int, ...]  # cards in each hand
    played: frozenset[int]  # cards that left the hands this round: every play was seen
    face_up: int | None  # the 明牌, and the seat it was dealt to
    holder: int | None
    bids: tuple[tuple[int, bool], ...]
    banker: int | None
    teams: tuple[tuple[int, ...], ...]
    side: frozenset[int]  # the seat's side once known (itself only before), itself included
    captured: tuple[int, ...]
    trick: tuple[TablePlay, ...]
    passes: int  # passes in a row since the trick's latest play
    finished: tuple[int, ...]

    @property
    def top_seat(self) -> int | None:
        """Who played the trick's latest play (None: a free lead)."""
        return self.trick[-1].seat if self.trick else None

    @property
    def top(self) -> Reading | None:
        return self.trick[-1].reading if self.trick else None

    @property
    def trick_points(self) -> int:
        """The points (5s, 10s, Ks) on the table."""
        return trick_points(self.trick)


def trick_points(trick: tuple[TablePlay, ...]) -> int:
    return sum(points_of(p.cards) for p in trick)


def side_of(teams: tuple[tuple[int, ...], ...], seat: int) -> tuple[int, ...]:
    """The seat's side once the teams are known; itself alone before."""
    return next((team for team in teams if seat in team), (seat,))


def observe(match: Match, seat: int, legal: list[Action] | None = None) -> Observation:
    """`seat`'s observation of the round in play; `legal`, when the caller listed the seat's
    actions already, spares listing them again."""
    rnd = match.round
    if legal is None:
        legal = flow.legal_actions(match, seat)
    hands = rnd.hands
    # Positional, in the order of the fields: built at every step of the search's rollouts, where
    # naming 25 fields would cost more than the rest of this function.
    return Observation(
        seat, tuple(legal), hands[seat], rnd.phase,  # seat, legal, hand, phase
        match.options, match.humans, match.scores,  # options, humans, scores
        rnd.number, rnd.cutter, rnd.cut_position, rnd.seating, rnd.to_act,  # number .. to_act
        tuple(len(h) for h in hands),  # counts
        _PACK.difference(rnd.deck, rnd.bottom, *hands),  # played
        rnd.face_up, rnd.holder, rnd.bids, rnd.banker, rnd.teams,  # face_up .. teams
        frozenset(side_of(rnd.teams, seat)),  # side
        rnd.captured, rnd.trick, rnd.passes, rnd.finished,  # captured .. finished
    )
