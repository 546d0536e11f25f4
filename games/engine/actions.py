"""What a seat can do. Actions are values; each has a JSON form for the API and the move log, and
`ACTION` is that form's one description: `action_from_dict` parses with it, the API documents it.
"""

from dataclasses import dataclass

from games.engine.cards import RANKS
from games.engine.combos import Reading
from games.engine.specs import Bool, Choice, Field, Int, List, Nullable, Obj, Tagged, Text, parse

MAX_CARDS_PER_PLAY = 64
MAX_ID = 2**31 - 1  # ids outside the pack are the rules' refusal (unknown_card), not the shape's


@dataclass(frozen=True, slots=True)
class Play:
    cards: tuple[int, ...]
    reading: Reading | None = None
    # In a listing of legal actions only: how many extra cards (带牌) may be added to `cards`.
    extras: int = 0

    def to_dict(self) -> dict:
        data = {"type": "play", "cards": list(self.cards)}
        if self.reading is not None:
            data["reading"] = self.reading.to_dict()
        if self.extras:
            data["extras"] = self.extras
        return data

    def with_extras(self, extras) -> "Play":
        """The play to submit: this listed core with the chosen extras, its reading named."""
        extras = tuple(extras)
        reading = self.reading._replace(length=self.reading.length + len(extras))
        return Play(self.cards + extras, reading)


@dataclass(frozen=True, slots=True)
class Pass:
    def to_dict(self) -> dict:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class Cut:
    position: int | None = None  # None: cut at random (bots, and clients that do not choose)

    def to_dict(self) -> dict:
        return {"type": "cut", "position": self.position}


@dataclass(frozen=True, slots=True)
class Bid:
    solo: bool

    def to_dict(self) -> dict:
        return {"type": "bid", "solo": self.solo}


Action = Play | Pass | Cut | Bid

READING = Obj({
    "type": Field(Text(20, "the combination's type id, e.g. single, pair, straight, bomb")),
    "rank": Field(Choice(RANKS, "lowest rank of a straight or chain, highest triple of a plane")),
    "length": Field(Int(1, MAX_CARDS_PER_PLAY, "number of cards")),
    "triples": Field(Int(0, MAX_CARDS_PER_PLAY, "510k planes: how many triples"), 0),
}, "one way to read a play; name it when the cards can be read several ways")


def _kind(name: str, description: str, **fields: Field) -> Obj:
    return Obj({"type": Field(Choice((name,))), **fields}, description)


ACTION = Tagged("type", {
    "play": _kind(
        "play", "play cards from your hand",
        cards=Field(List(Int(0, MAX_ID), MAX_CARDS_PER_PLAY, 0,
                         "card ids from your hand (the `id` of each card in your view)")),
        reading=Field(Nullable(READING), None),
        extras=Field(Int(0, MAX_CARDS_PER_PLAY, "ignored: lets a listed legal action be sent "
                         "back as it came; the cards sent are what is played"), 0),
    ),
    "pass": _kind("pass", "pass this turn"),
    "cut": _kind("cut", "510k: cut the shuffled pack",
                 position=Field(Nullable(Int(0, MAX_ID, "where to cut; null: at random")), None)),
    "bid": _kind("bid", "510k: go solo (包庄) or not", solo=Field(Bool("true: go solo (包庄)"))),
})


def action_from_dict(data, code: str = "invalid_action") -> Action:
    """Parse the JSON form (refused with `code`); card ids are checked against the hand by the
    ruleset, not here."""
    return action_from_parsed(parse(ACTION, data, code))


def action_from_parsed(body: dict) -> Action:
    """The action of a body `ACTION` has parsed already (as part of a larger body)."""
    kind = body["type"]
    if kind == "play":
        reading = body["reading"]
        if reading is not None:
            reading = Reading.from_dict(reading)
        return Play(tuple(body["cards"]), reading)
    if kind == "pass":
        return Pass()
    if kind == "cut":
        return Cut(body["position"])
    return Bid(body["solo"])
