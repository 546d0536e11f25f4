"""What a seat can do. Actions are values; each has a JSON form for the API and the move log."""

from dataclasses import dataclass

from games.engine.combos import Reading
from games.engine.errors import IllegalAction


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


def action_from_dict(data) -> Action:
    """Parse the JSON form; card ids are checked against the hand by the ruleset, not here."""
    if not isinstance(data, dict):
        raise IllegalAction("invalid_action", "an action is a JSON object with a type")
    kind = data.get("type")
    if kind == "pass":
        return Pass()
    if kind == "play":
        cards = data.get("cards")
        if not isinstance(cards, list) or not all(
            isinstance(c, int) and not isinstance(c, bool) for c in cards
        ):
            raise IllegalAction("invalid_action", "a play needs `cards`, a list of card ids")
        reading = data.get("reading")
        return Play(tuple(cards), None if reading is None else Reading.from_dict(reading))
    if kind == "cut":
        position = data.get("position")
        if position is not None and (not isinstance(position, int) or isinstance(position, bool)):
            raise IllegalAction("invalid_action", "a cut position is an integer or null")
        return Cut(position)
    if kind == "bid":
        solo = data.get("solo")
        if not isinstance(solo, bool):
            raise IllegalAction("invalid_action", "a bid needs `solo`, true or false")
        return Bid(solo)
    raise IllegalAction("invalid_action", f"unknown action type {kind!r}", type=repr(kind))
