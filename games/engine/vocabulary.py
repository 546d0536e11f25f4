"""The words every ruleset's view shares, as specs: a ruleset's view is `view_spec(info, its own
keys)`. The specs document the views in OpenAPI, and the contract test checks every view a
ruleset produces against its spec, so the words cannot drift apart. `Ruleset.view` writes the
shared words' values."""

from games.engine.actions import MAX_ID, READING
from games.engine.ruleset import PHASES
from games.engine.specs import Bool, Choice, Field, Int, List, Nullable, Obj, Text

MAX_SEATS = 8
MAX_CARDS = 216  # four decks: more than any ruleset deals
POINTS = Int(-(10**9), 10**9)
ROUND = Int(0, 10**6, "the current or last round; 0 before the first")

SEAT = Int(0, MAX_SEATS - 1)
CARD = Obj({"id": Field(Int(0, MAX_ID)), "code": Field(Text(3, "rank + suit: 10H, QS, SJ, BJ"))},
           "one physical card: its id (send ids) and its code")
HAND_CARD = Obj({**CARD.fields, "playable": Field(Bool("some legal play now uses its rank"))})
CARDS = List(CARD, MAX_CARDS)


def per_seat(item, description: str = "") -> List:
    return List(item, MAX_SEATS, description=description)


TRICK_PLAY = Obj({
    "seat": Field(SEAT),
    "cards": Field(CARDS),
    "reading": Field(READING),
    "latest": Field(Bool("the play to beat")),
})


def core_fields(ruleset: str, options: Obj) -> dict[str, Field]:
    return {
        "ruleset": Field(Choice((ruleset,))),
        "options": Field(options),
        "phase": Field(Choice(PHASES, "waiting (no round dealt yet), a round's phase (cut, bid, "
                                      "play: those the ruleset has), round_over, match_over")),
        "round": Field(ROUND),
        "to_act": Field(Nullable(SEAT, "the seat whose action is awaited")),
        "seat": Field(Nullable(SEAT, "whose view this is (null: an onlooker's)")),
        "players": Field(Int(1, MAX_SEATS)),
        "humans": Field(per_seat(Bool(), "whether each seat is a person")),
        "scores": Field(per_seat(POINTS, "each seat's match score")),
        "counts": Field(per_seat(Int(0, MAX_CARDS), "cards in each seat's hand")),
        "seating": Field(per_seat(SEAT, "seats in turn order this round")),
        "trick": Field(List(TRICK_PLAY, MAX_CARDS, description="this trick's plays, oldest first")),
        "played": Field(List(CARD, MAX_CARDS, description="every card played this round")),
        "hand": Field(List(HAND_CARD, MAX_CARDS, description="your cards (a seat's view only)"),
                      []),
    }


def view_spec(ruleset: str, options: Obj, fields: dict[str, Field], description: str) -> Obj:
    """A ruleset's view: the shared words, then its own."""
    shared = core_fields(ruleset, options)
    if set(shared) & set(fields):
        raise ValueError(f"{ruleset}'s view redefines shared words: {set(shared) & set(fields)}")
    return Obj({**shared, **fields}, description)

