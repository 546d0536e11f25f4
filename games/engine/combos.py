"""The vocabulary both rulesets share for what a set of cards is."""

from typing import NamedTuple

from games.engine.cards import RANK_INDEX, RANKS
from games.engine.errors import IllegalAction


class Reading(NamedTuple):
    """One way to read a play: type id, rank index (see each ruleset page), number of cards.

    `triples` is set for 510k planes only: with extras, the card count alone does not tell how many
    triples a plane has (555666777 is three triples, or two plus three extras), and planes only
    beat planes with as many triples. 0 everywhere else, and in a client's reading: "not said".
    """

    type: str
    rank: int
    length: int
    triples: int = 0

    def named_by(self, named: "Reading") -> bool:
        """Whether a client's `named` reading picks this one; a `triples` left unsaid fits any."""
        return self[:3] == named[:3] and named.triples in (0, self.triples)

    def to_dict(self) -> dict:
        data = {"type": self.type, "rank": RANKS[self.rank], "length": self.length}
        if self.triples:
            data["triples"] = self.triples
        return data

    @classmethod
    def from_dict(cls, data) -> "Reading":
        try:
            triples = int(data["triples"]) if "triples" in data else 0
            return cls(
                str(data["type"]), RANK_INDEX[str(data["rank"])], int(data["length"]), triples
            )
        except (KeyError, TypeError, ValueError) as err:
            raise IllegalAction(
                "invalid_reading", "a reading is {type, rank, length}", reading=repr(data)
            ) from err
