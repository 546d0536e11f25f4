"""High card with a leak planted, for the leak checks' own tests: each is valid by its specs and
shows a card it must not. A module, not a folder, so never registered; a test registers one for
as long as it needs it."""

from dataclasses import replace

from games.engine.cards import wire
from games.engine.events import events_spec
from games.engine.specs import Choice, Field, Obj, Tagged
from games.engine.vocabulary import CARDS, per_seat
from tests.rulesets.highcard.ruleset import EVENTS, VIEW, HighCard


def _named(name: str, **changes):
    """HighCard's info under another name (a view names its ruleset)."""
    view = Obj({**VIEW.fields, "ruleset": Field(Choice((name,)))}, VIEW.description)
    return replace(HighCard.info, name=name, view=view, **changes)


class EventsShowHands(HighCard):
    """After each play, an event lists every hand (its spec allows it: specs cannot know)."""

    info = _named("leaky_events", events=Tagged("type", {
        **EVENTS.variants,
        **events_spec({"hands": Obj({"hands": Field(per_seat(CARDS))})}).variants,
    }))

    def apply(self, state, seat, action):
        state, events = super().apply(state, seat, action)
        hands = [[wire(c) for c in hand] for hand in self.view_facts(state).hands]
        return state, [*events, {"type": "hands", "hands": hands}]


class ViewShowsHand(HighCard):
    """A seat's view counts the next seat's hand among the cards played."""

    info = _named("leaky_view")

    def view(self, state, seat, legal=None):
        data = super().view(state, seat, legal)
        if seat is not None:
            following = self.view_facts(state).hands[(seat + 1) % state.players]
            data["played"] = [*data["played"], *map(wire, following)]
        return data
