"""Gandengyan options and state values, and their JSON form."""

from typing import NamedTuple

from games.engine.cards import RANK_OF
from games.engine.combos import Reading
from games.engine.specs import Choice, Field, Int, Obj

HAND_SIZE = 5
# Hands are kept sorted by rank, then id: jokers come last, so hand[0] tells if all are jokers.
HAND_ORDER = tuple(RANK_OF[c] * 256 + c for c in range(len(RANK_OF)))

OPTIONS = Obj({
    "decks": Field(Choice((1, 2), "packs shuffled together (54 cards each)"), 1,
                   {"en": "Decks", "zh": "几副牌"}),
    "players": Field(Choice((4, 5, 6)), 4, {"en": "Players", "zh": "人数"}),
    "starting_score": Field(Int(1, 100_000, "every seat's score at the start; a seat at 0 or "
                                "below is eliminated"), 500,
                            {"en": "Starting score", "zh": "初始分"}),
})


def sort_hand(cards) -> tuple[int, ...]:
    return tuple(sorted(cards, key=HAND_ORDER.__getitem__))


def put(values: tuple, index: int, value) -> tuple:
    """`values` (a plain or named tuple) with one item changed: the hot paths' `_replace`, which
    costs several times as much."""
    return tuple.__new__(type(values), (*values[:index], value, *values[index + 1:]))


# States are NamedTuples rather than frozen dataclasses: as immutable, and a new state is built on
# every action, where a tuple is several times cheaper to construct.


class TablePlay(NamedTuple):
    seat: int
    cards: tuple[int, ...]
    reading: Reading


class Logged(NamedTuple):
    """One public event of a round: what every seat saw happen."""

    kind: str  # one of LOGGED
    seat: int
    cards: tuple[int, ...] = ()  # a play's cards
    reading: Reading | None = None  # a play's reading


LOGGED = ("play", "pass", "trick_won", "draw", "forfeit")
# A view shows the round's latest public events, at most this many: the state keeps no more, so
# that an act's cost (its snapshot, its view) does not grow with the round. All of the round's are
# its stored events, what a bot reads (`Gandengyan.remember` with `whole`).
LOG_TAIL = 32


class Round(NamedTuple):
    number: int  # from 1
    seated: tuple[bool, ...]  # dealt into this round (not eliminated when it began)
    hands: tuple[tuple[int, ...], ...]  # each sorted by HAND_ORDER
    pile: tuple[int, ...]  # the next card drawn is the last one
    dice: tuple[int, ...]  # every roll of round 1, re-rolls included; empty later
    leader: int
    to_act: int | None  # None once the round is over
    trick: tuple[TablePlay, ...]  # this trick's plays, latest last; empty = a free lead
    forfeited: tuple[bool, ...]
    played_any: tuple[bool, ...]
    bombs: tuple[int, ...]  # the size of every bomb played this round, in order
    winner: int | None  # set when the round is over
    # This round's latest public events (LOG_TAIL; all of them in a bot's copy), oldest first:
    # who played what, passed, took a trick, drew or forfeited. Not kept by the moves themselves
    # (see flow): `Gandengyan.remember` adds them. Bots read them to judge the hidden hands.
    log: tuple[Logged, ...] = ()


class Match(NamedTuple):
    decks: int
    players: int
    starting_score: int
    humans: tuple[bool, ...]
    scores: tuple[int, ...]
    eliminated: tuple[bool, ...]
    round: Round | None  # the current or the last finished round; None before the first

    @property
    def options(self) -> dict:
        return {"decks": self.decks, "players": self.players,
                "starting_score": self.starting_score}


def match_to_json(state: Match) -> dict:
    data: dict = {"options": state.options, "humans": list(state.humans),
                  "scores": list(state.scores), "eliminated": list(state.eliminated),
                  "round": None}
    rnd = state.round
    if rnd is not None:
        data["round"] = {
            "number": rnd.number, "seated": list(rnd.seated),
            "hands": [list(h) for h in rnd.hands], "pile": list(rnd.pile), "dice": list(rnd.dice),
            "leader": rnd.leader, "to_act": rnd.to_act,
            "trick": [{"seat": t.seat, "cards": list(t.cards), "reading": t.reading.to_dict()}
                      for t in rnd.trick],
            "forfeited": list(rnd.forfeited), "played_any": list(rnd.played_any),
            "bombs": list(rnd.bombs), "winner": rnd.winner,
            "log": [logged_to_json(e) for e in rnd.log],
        }
    return data


def logged_to_json(event: Logged) -> dict:
    return {"type": event.kind, "seat": event.seat, "cards": list(event.cards),
            "reading": None if event.reading is None else event.reading.to_dict()}


def logged_from_json(data: dict) -> Logged:
    reading = data["reading"]
    return Logged(data["type"], data["seat"], tuple(data["cards"]),
                  None if reading is None else Reading.from_dict(reading))


def logged_from_event(event: dict) -> Logged:
    """An engine event of a LOGGED type, as `apply` returned it or as stored, as a Logged."""
    reading = event.get("reading")
    return Logged(event["type"], event["seat"], tuple(c["id"] for c in event.get("cards", ())),
                  None if reading is None else Reading.from_dict(reading))


def match_from_json(data: dict) -> Match:
    options = data["options"]
    raw = data["round"]
    rnd = None
    if raw is not None:
        rnd = Round(
            number=raw["number"], seated=tuple(raw["seated"]),
            hands=tuple(tuple(h) for h in raw["hands"]), pile=tuple(raw["pile"]),
            dice=tuple(raw["dice"]), leader=raw["leader"], to_act=raw["to_act"],
            trick=tuple(TablePlay(t["seat"], tuple(t["cards"]), Reading.from_dict(t["reading"]))
                        for t in raw["trick"]),
            forfeited=tuple(raw["forfeited"]), played_any=tuple(raw["played_any"]),
            bombs=tuple(raw["bombs"]), winner=raw["winner"],
            # States saved before the log was kept have none: their bots judge without it.
            log=tuple(logged_from_json(e) for e in raw.get("log", ())),
        )
    return Match(
        decks=options["decks"], players=options["players"],
        starting_score=options["starting_score"], humans=tuple(data["humans"]),
        scores=tuple(data["scores"]), eliminated=tuple(data["eliminated"]), round=rnd,
    )


TO_ACT = Round._fields.index("to_act")
ROUND = Match._fields.index("round")
