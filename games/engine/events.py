"""The pieces a ruleset's events spec is made of: a ruleset's `EVENTS` is `events_spec(its event
types)`, and the contract test checks every event a ruleset emits against it (games.events adds
what the service writes)."""

from games.engine.actions import READING
from games.engine.specs import Bool, Choice, Field, Int, List, Obj, Tagged
from games.engine.vocabulary import CARDS, MAX_SEATS, POINTS, SEAT, per_seat

DELTAS = per_seat(POINTS, "each seat's score change this round")
STANDINGS = List(Obj({
    "seat": Field(SEAT),
    "score": Field(POINTS),
    "rank": Field(Int(1, MAX_SEATS, "equal scores may share a rank")),
    "eliminated": Field(Bool("out of the match (rulesets that eliminate)"), False),
}), MAX_SEATS, description="the final ranking, best first")
PLAY_EVENT = Obj({"seat": Field(SEAT), "cards": Field(CARDS), "reading": Field(READING)},
                 "a seat played these cards, read so")
SEAT_EVENT = Obj({"seat": Field(SEAT)})


def events_spec(events: dict[str, Obj]) -> Tagged:
    """Every event a ruleset's `apply` may emit, by `type`, and what each says: public facts
    only (a card in an event is a card every seat may know)."""
    return Tagged("type", {
        name: Obj({"type": Field(Choice((name,))), **spec.fields}, spec.description)
        for name, spec in events.items()
    }, "one event: what every seat saw happen")
