"""What every registered ruleset promises, checked the same way for each (in the spirit of
OpenSpiel's random_sim_test): seeded random matches in which every listed action is accepted,
states and actions survive JSON, the move log replays to the same state, views match their spec
and the table and never show another seat's cards."""

import json
import random

import pytest

from games.engine.actions import Play, action_from_dict
from games.engine.errors import IllegalAction
from games.engine.registry import RULESETS
from games.engine.replay import replay
from games.engine.ruleset import PHASES
from games.engine.specs import parse
from tests.conftest import TEST_RULESETS

MAX_ROUNDS = 3
MAX_STEPS = 3000


def card_ids(value) -> set[int]:
    """Every card id in a JSON value (cards are {"id", "code", ...})."""
    if isinstance(value, dict):
        found = {value["id"]} if "code" in value and "id" in value else set()
        return found.union(*(card_ids(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(card_ids(v) for v in value))
    return set()


def setups():
    for name, ruleset in sorted(RULESETS.items()):
        for players in ruleset.info.players:
            yield pytest.param(ruleset, players, id=f"{name}-{players}")


def test_the_test_ruleset_is_registered_by_its_folder_alone():
    assert TEST_RULESETS == ["highcard"] and "highcard" in RULESETS


@pytest.mark.parametrize("ruleset", sorted(RULESETS.values(), key=lambda r: r.name),
                         ids=lambda r: r.name)
def test_info_describes_options_with_valid_defaults(ruleset):
    info = ruleset.info
    assert info.name == ruleset.name and set(info.title) == {"en", "zh"}
    assert "players" in info.options.fields
    defaults = ruleset.parse_options({})
    assert defaults == info.options.defaults() and defaults["players"] in info.players
    with pytest.raises(IllegalAction) as refused:
        ruleset.parse_options({"no such option": 1})
    assert refused.value.code == "invalid_option"
    if info.settle_example:
        example = dict(info.settle_example)
        result = ruleset.settle(ruleset.parse_options(example.pop("options", {})), example)
        assert sum(result["deltas"]) == 0


def check_views(ruleset, state) -> None:
    table = ruleset.table(state)
    assert table.phase in PHASES and len(table.seating) == table.players
    full = ruleset.full_view(state)
    hands = [card_ids(h) for h in full.get("hands", [])]
    public = ruleset.view(state, None)
    shown = card_ids(public)
    for seat in [None, *range(table.players)]:
        view = public if seat is None else ruleset.view(state, seat)
        parse(ruleset.info.view, view, "bad_view")
        assert view["seat"] == seat and view["phase"] == table.phase
        assert view["to_act"] == table.to_act and view["round"] == table.round
        assert view["seating"] == list(table.seating)
        assert view["scores"] == list(table.scores) and view["players"] == table.players
        own = hands[seat] if seat is not None and hands else set()
        assert card_ids(view) <= own | shown, "a view shows cards of another seat"
    json.dumps(full)


def check_listed_actions(ruleset, state, seat, rng) -> list:
    legal = ruleset.legal_actions(state, seat)
    assert legal, "a seat to act has something to do"
    for action in legal:
        assert ruleset.is_legal(state, seat, action)
        again = action_from_dict(json.loads(json.dumps(action.to_dict())))
        assert ruleset.is_legal(state, seat, again)
        if isinstance(action, Play) and action.extras:
            hand = tuple(c["id"] for c in ruleset.view(state, seat)["hand"])
            extras = rng.sample(ruleset.extra_candidates(hand, action),
                                rng.randint(0, action.extras))
            assert ruleset.is_legal(state, seat, action.with_extras(extras))
    others = [s for s in range(ruleset.table(state).players) if s != seat]
    if others:
        assert not ruleset.is_legal(state, others[0], legal[0])
    return legal


@pytest.mark.parametrize(("ruleset", "players"), list(setups()))
@pytest.mark.parametrize("seed", range(3))
def test_random_matches_keep_the_contract(ruleset, players, seed):
    rng = random.Random(f"{ruleset.name}-{players}-{seed}")
    options = ruleset.parse_options({"players": players})
    humans = [True] + [False] * (players - 1)
    state = ruleset.new_match(options, humans)
    check_views(ruleset, state)
    seeds, moves, steps = [], [], 0
    while ruleset.table(state).needs_round and len(seeds) < MAX_ROUNDS:
        seeds.append(f"contract-{seed}-{len(seeds)}")
        state = ruleset.start_round(state, seeds[-1])
        before = ruleset.table(state).scores
        while not ruleset.round_over(state):
            steps += 1
            assert steps < MAX_STEPS, "a round never ends"
            seat = ruleset.to_act(state)
            forced = ruleset.forced_action(state)
            if forced is not None:
                action = forced
            else:
                check_views(ruleset, state)
                action = rng.choice(check_listed_actions(ruleset, state, seat, rng))
            state, events = ruleset.apply(state, seat, action)
            json.dumps(events)
            moves.append((len(seeds), seat, action))
            assert ruleset.from_json(json.loads(json.dumps(ruleset.to_json(state)))) == state
        check_views(ruleset, state)
        result = ruleset.round_result(state)
        json.dumps(result)
        assert sum(result["deltas"]) == 0 and result["winners"]
        after = ruleset.table(state).scores
        assert [a - b for a, b in zip(after, before, strict=True)] == result["deltas"]
    assert replay(ruleset, options, humans, seeds, moves) == state
