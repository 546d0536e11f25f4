"""OpenAPI from the engine's own descriptions: each registered ruleset's options (alone, and with
a new match's own), view and settlement facts become components (added by `add_components`, a
drf-spectacular postprocessing hook), and the examples of views are real views of a dealt round,
so they cannot go stale."""

import hashlib
import random

from games.engine.registry import RULESETS
from games.engine.ruleset import Ruleset
from games.engine.specs import Field, Obj
from games.models import Match, Seat
from games.presenters import match_view
from games.selectors import MatchRead
from games.services.matches import MATCH_OPTIONS
from games.sql import SeatInfo

EXAMPLE_SEED = "openapi-example"


def component(ruleset: Ruleset, what: str) -> str:
    return f"{ruleset.name.capitalize()}{what}"


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def one_of(what: str, description: str) -> dict:
    """Any registered ruleset's `what` component, told apart by `ruleset` where it has one."""
    return {"oneOf": [ref(component(r, what)) for r in RULESETS.values()],
            "description": description}


def any_of(what: str, description: str) -> dict:
    """Any registered ruleset's `what` component, where a value may fit several (options, all
    of them optional: `{}` is every ruleset's)."""
    return {"anyOf": [ref(component(r, what)) for r in RULESETS.values()],
            "description": description}


def match_options(ruleset: Ruleset) -> dict:
    """What a new match's `options` take: the ruleset's, and the match's own (MATCH_OPTIONS)."""
    schema = ruleset.info.options.schema()
    own = {name: spec.schema() for name, spec in MATCH_OPTIONS.items()}
    return {**schema, "properties": {**schema["properties"], **own}}


def _ruleset_in_paths(result) -> None:
    """A ruleset in a URL is one of the registered ones (any other is a 404)."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path" and parameter["name"] == "ruleset":
                    parameter["schema"] = {"type": "string", "enum": list(RULESETS)}


def settle_body(ruleset: Ruleset) -> Obj:
    options = Obj({name: Field(f.spec, f.default, f.label)
                   for name, f in ruleset.info.options.fields.items()},
                  f"{ruleset.name}'s options; missing ones take their defaults")
    return Obj({"options": Field(options, {}), **ruleset.info.settle_facts.fields},
               f"the facts of one {ruleset.name} round")


def add_components(result, generator, request, public):
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for ruleset in RULESETS.values():
        schemas[component(ruleset, "Options")] = ruleset.info.options.schema()
        schemas[component(ruleset, "View")] = ruleset.info.view.schema()
        schemas[component(ruleset, "SettleInput")] = settle_body(ruleset).schema()
        schemas[component(ruleset, "MatchOptions")] = match_options(ruleset)
    _ruleset_in_paths(result)
    return result


def example_state(ruleset: Ruleset):
    """A round of default options dealt from a fixed seed and played (each seat taking its first
    listed action) until seat 0, a person, has a play to answer."""
    options = ruleset.parse_options({})
    players = options.get("players", ruleset.info.players[0])
    state = ruleset.start_round(ruleset.new_match(options, [True] + [False] * (players - 1)),
                                EXAMPLE_SEED)
    rng = random.Random(EXAMPLE_SEED)
    for _ in range(200):
        seat = ruleset.to_act(state)
        table = ruleset.table(state)
        if seat == 0 and table.phase == "play" and ruleset.view(state, None)["trick"]:
            break
        if seat is None:
            break
        state, _ = ruleset.apply(state, seat, rng.choice(ruleset.legal_actions(state, seat)))
    return state


def example_view(ruleset: Ruleset) -> dict:
    """A person's view of a match of `ruleset` (seat 0 against bots), as the API builds it."""
    state = example_state(ruleset)
    table = ruleset.table(state)
    match = Match(pk=7, ruleset=ruleset.name, options=ruleset.parse_options({}),
                  status=Match.Status.ACTIVE, version=12, snapshot=ruleset.to_json(state),
                  to_act=table.to_act, last_event_seq=30, invite_code="K7QX2MZP4D")
    seats = [SeatInfo(0, Seat.Kind.HUMAN, "", 1, "ada", table.scores[0], False)] + [
        SeatInfo(i, Seat.Kind.BOT, "normal", None, None, table.scores[i], table.eliminated[i])
        for i in range(1, table.players)]
    read = MatchRead(match, table.round, hashlib.sha256(EXAMPLE_SEED.encode()).hexdigest(),
                     seats, seats[0], [])
    return match_view(read, state)
