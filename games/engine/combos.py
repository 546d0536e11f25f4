"""The vocabulary both rulesets share for what a set of cards is."""

from typing import NamedTuple

from games.engine.cards import RANK_INDEX, RANKS
from games.engine.errors import IllegalAction


class Reading(NamedTuple):
    """One way to read a play: type id, rank index (see each ruleset page), number of cards."""

    type: str
    rank: int
    length: int

    def to_dict(self) -> dict:
        return {"type": self.type, "rank": RANKS[self.rank], "length": self.length}

    @classmethod
    def from_dict(cls, data) -> "Reading":
        try:
            return cls(str(data["type"]), RANK_INDEX[str(data["rank"])], int(data["length"]))
        except (KeyError, TypeError, ValueError) as err:
            raise IllegalAction(
                "invalid_reading", "a reading is {type, rank, length}", reading=repr(data)
            ) from err
