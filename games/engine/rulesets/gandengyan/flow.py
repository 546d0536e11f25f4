"""How a gandengyan round moves: the deal, plays, passes, tricks, draws, forfeits, the round's end
and its settlement. Every transition returns a new Round; `events` collects what the table sees
(None: nothing is collected).
The round's public log is not kept here (an action's cost would grow with it): the ruleset's
`remember` adds an action's events to it, where a view or a bot needs them."""

import random

from games.engine.cards import JOKER, RANK_OF, make_pack, wire
from games.engine.combos import Reading
from games.engine.rulesets.gandengyan import settle as settlement
from games.engine.rulesets.gandengyan.combos import BOMB
from games.engine.rulesets.gandengyan.state import (
    HAND_SIZE,
    TO_ACT,
    Logged,
    Match,
    Round,
    TablePlay,
    put,
    sort_hand,
)

DIE_FACES = 6
LAST_TABLE = 3  # the match ends when at most this many seats are left


def finished(match: Match) -> bool:
    """The match is over: few seats left, or every person at the table eliminated."""
    live = [not out for out in match.eliminated]
    if sum(live) <= LAST_TABLE:
        return True
    return any(match.humans) and not any(h and up for h, up in zip(match.humans, live,
                                                                    strict=True))


def phase(match: Match) -> str:
    if finished(match):
        return "match_over"
    if match.round is None:
        return "waiting"
    return "play" if match.round.winner is None else "round_over"


def _next_in_round(rnd: Round, seat: int) -> int:
    seats = len(rnd.hands)
    for step in range(1, seats + 1):
        other = (seat + step) % seats
        if rnd.seated[other] and not rnd.forfeited[other]:
            return other
    raise AssertionError("a round always has a seat holding cards")


def _draw(rnd: Round, seat: int, events: list[dict] | None) -> Round:
    if not rnd.pile:
        return rnd
    hand = sort_hand(rnd.hands[seat] + (rnd.pile[-1],))
    if events is not None:
        events.append({"type": "draw", "seat": seat, "pile": len(rnd.pile) - 1})
    return rnd._replace(hands=put(rnd.hands, seat, hand), pile=rnd.pile[:-1])


def _turn_to(rnd: Round, seat: int, events: list[dict] | None) -> Round:
    """Give the turn to `seat`: close the trick if it comes back to its last player, and let
    every seat whose turn comes with only jokers forfeit, until someone can act."""
    while True:
        if rnd.trick and rnd.trick[-1].seat == seat:
            if events is not None:
                events.append({"type": "trick_won", "seat": seat})
            rnd = _draw(rnd._replace(trick=()), seat, events)
        if RANK_OF[rnd.hands[seat][0]] != JOKER:  # hands sort jokers last
            return rnd if rnd.to_act == seat else put(rnd, TO_ACT, seat)
        # Decision (also at a lead after a trick): the next seat in order acts, leading freely
        # if the table was just cleared.
        rnd = rnd._replace(forfeited=put(rnd.forfeited, seat, True))
        if events is not None:
            events.append({"type": "forfeit", "seat": seat})
        holders = [s for s in range(len(rnd.hands)) if rnd.seated[s] and not rnd.forfeited[s]]
        if len(holders) == 1:
            return rnd._replace(to_act=None, winner=holders[0])
        seat = _next_in_round(rnd, seat)


def deal(match: Match, seed) -> Round:
    """Round k+1 of `match`, dealt from random.Random(seed): dice (round 1), deal, leader draws."""
    rng = random.Random(seed)
    number = 1 if match.round is None else match.round.number + 1
    seated = tuple(not out for out in match.eliminated)
    dice: list[int] = []
    if number == 1:
        while not dice or dice[-1] > match.players:
            dice.append(rng.randint(1, DIE_FACES))
        leader = dice[-1] - 1
    else:
        # Decision: an eliminated winner hands the lead to the next live seat in turn order.
        leader = match.round.winner
        while not seated[leader]:
            leader = (leader + 1) % match.players
    # A random key per card: as uniform as rng.shuffle, and cheaper (random() is one C call).
    deck = sorted(make_pack(match.decks), key=lambda _: rng.random())
    hands = []
    for seat in range(match.players):
        if seated[seat]:
            hands.append(sort_hand(deck[:HAND_SIZE]))
            del deck[:HAND_SIZE]
        else:
            hands.append(())
    no = (False,) * match.players
    rnd = Round(number, seated, tuple(hands), tuple(deck), tuple(dice), leader, None, (), no, no,
                (), None)
    # A fresh deal: only the leader's draw, no forfeit with 6 cards (and no event stored).
    rnd = _turn_to(_draw(rnd, leader, None), leader, None)
    return rnd._replace(log=(Logged("draw", leader),))


def play(rnd: Round, seat: int, cards: frozenset[int], reading: Reading,
         events: list[dict] | None) -> Round:
    """`seat` plays `cards` (checked legal, read as `reading`); its events go to `events`
    (None: the search's rollouts, which need none)."""
    hand = rnd.hands[seat]
    played = tuple([c for c in hand if c in cards])
    left = tuple([c for c in hand if c not in cards])
    if events is not None:
        events.append({"type": "play", "seat": seat, "cards": [wire(c) for c in played],
                       "reading": reading.to_dict()})
    out = not left  # an empty hand wins at once
    following = None if out else _next_in_round(rnd, seat)
    rnd = Round(
        number=rnd.number, seated=rnd.seated, hands=put(rnd.hands, seat, left), pile=rnd.pile,
        dice=rnd.dice, leader=rnd.leader, to_act=following,
        trick=rnd.trick + (TablePlay(seat, played, reading),),
        forfeited=rnd.forfeited,
        played_any=rnd.played_any if rnd.played_any[seat] else put(rnd.played_any, seat, True),
        bombs=rnd.bombs + (reading.length,) if reading.type == BOMB else rnd.bombs,
        winner=seat if out else None, log=rnd.log,
    )
    return rnd if out else _turn_to(rnd, following, events)


def pass_turn(rnd: Round, seat: int, events: list[dict] | None) -> Round:
    if events is not None:
        events.append({"type": "pass", "seat": seat})
    return _turn_to(rnd, _next_in_round(rnd, seat), events)


def settle(match: Match) -> dict:
    """The settlement of the finished current round."""
    rnd = match.round
    return settlement.settle(
        winner=rnd.winner,
        remaining=[len(h) for h in rnd.hands],
        played_any=rnd.played_any,
        forfeited=rnd.forfeited,
        bombs=rnd.bombs,
        decks=match.decks,
        absent=[not s for s in rnd.seated],
    )
