"""Every event a client reads (a match's `events`, its stream's updates), as specs: a ruleset's
own (its `info.events`) with what the service adds to each, and the events the service emits
itself. Said here once; the API's hidden-information test checks every event it reads with
`spec`."""

from games.engine.events import DELTAS, SEAT_EVENT, STANDINGS, events_spec
from games.engine.ruleset import Ruleset
from games.engine.specs import Choice, Field, Int, List, Nullable, Obj, Tagged, Text
from games.engine.vocabulary import MAX_SEATS, ROUND, SEAT
from games.models import BOT_LEVELS, Move, Seat

COUNT = Int(1, 2**31 - 1)
SEED = Text(64)
# Where an event sits in the match's log (presenters.event_dicts).
LOGGED = {"seq": Field(COUNT), "round": Field(ROUND), "version": Field(COUNT)}
# Who acted, on a ruleset's event, and why the server did (Move.reason). Written under the
# event's own keys: gandengyan's `round_end` keeps its own `reason` (how the round ended) when the
# server played the last card; the play's own event says why the server played.
ACTED = {"actor": Field(Choice(tuple(Move.Actor.values))), "reason": Field(Text(16), "")}
SERVICE = events_spec({
    "match_created": Obj({"seats": Field(List(Choice(tuple(Seat.Kind.values)), MAX_SEATS, 1))}),
    "match_started": Obj({}, "every seat is taken; the first round is dealt"),
    "player_joined": SEAT_EVENT,
    "player_left": SEAT_EVENT,
    "bots_joined": Obj({"seats": Field(List(SEAT, MAX_SEATS)),
                        "levels": Field(List(Choice(BOT_LEVELS), MAX_SEATS))},
                       "bots took the seats nobody took in time (or declined, in a rematch)"),
    "rematch_offered": Obj({"match": Field(Int(1, 2**63 - 1), "the rematch's id"),
                            "seat": Field(SEAT, "who asked for it")},
                           "the finished match is played again: its people may take their seats"),
    "round_started": Obj({"round": Field(ROUND), "seed_hash": Field(SEED)},
                         "a round was dealt from a secret seed, of which this is the SHA-256"),
    "round_settled": Obj({"round": Field(ROUND), "seed": Field(SEED), "seed_hash": Field(SEED),
                          "deltas": Field(DELTAS)}, "the round is scored; its seed revealed"),
    "autoplay_on": Obj({"seat": Field(SEAT), "reason": Field(Text(16))},
                       "the server plays the seat (托管)"),
    "autoplay_off": Obj({"seat": Field(SEAT), "reason": Field(Text(16))},
                        "the seat's person plays again"),
    "match_finished": Obj({"standings": Field(STANDINGS)}),
    "match_aborted": Obj({"reason": Field(Text(500, "as staff wrote it, or the server's")),
                          "by": Field(Nullable(Choice(("server",)), "the server abandoned a "
                                               "match paused too long; absent: staff stopped it"),
                                      None)}),
    "match_paused": Obj({"reason": Field(Choice(("away",))),
                         "abandon_at": Field(Text(40, "when it is abandoned (ISO 8601)"))},
                        "every person was away: the match waits for one of them"),
    "match_resumed": Obj({"seat": Field(SEAT, "who came back")}, "the match goes on"),
})


def spec(ruleset: Ruleset) -> Tagged:
    """Every event a client may read of a match of `ruleset`."""
    own = ruleset.info.events.variants
    if own.keys() & SERVICE.variants.keys():
        raise ValueError(f"{ruleset.name}'s events take the service's names: "
                         f"{sorted(own.keys() & SERVICE.variants.keys())}")
    return Tagged("type", {
        **{name: Obj({**LOGGED, **ACTED, **event.fields}, event.description)
           for name, event in own.items()},
        **{name: Obj({**LOGGED, **event.fields}, event.description)
           for name, event in SERVICE.variants.items()},
    }, f"one event of a {ruleset.name} match")
