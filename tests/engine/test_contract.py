"""What every registered ruleset promises, checked the same way for each (in the spirit of
OpenSpiel's random_sim_test): seeded random matches in which every listed action is accepted,
states and actions survive JSON, the move log replays to the same state, views match their spec
and their shared words say what the table says, events match their spec, and neither shows a
card some seat may not know (a leak planted in a ruleset is caught: tests/rulesets/leaky.py)."""

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
from tests.rulesets.highcard import RULESET as HIGHCARD
from tests.rulesets.leaky import EventsShowHands, ViewShowsHand

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
    assert set(info.how_to_play) == {"en", "zh"} and all(info.how_to_play.values())
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


def secrets(ruleset, state) -> set[int]:
    """The cards some seat may not know now: those the full view shows and an onlooker's view
    does not (in a seat's hand, only that seat may know them)."""
    return card_ids(ruleset.full_view(state)) - card_ids(ruleset.view(state, None))


def check_shared_words(ruleset, table, hands: list, view: dict, seat: int | None,
                       setup: tuple) -> None:
    """The words every view shares say what `table()` says, and how the match was set up."""
    options, humans = setup
    assert {word: view[word] for word in ("phase", "round", "to_act", "players")} == {
        "phase": table.phase, "round": table.round, "to_act": table.to_act,
        "players": table.players}
    assert view["seating"] == list(table.seating) and view["scores"] == list(table.scores)
    assert (view["ruleset"], view["seat"], view["options"], view["humans"]) == (
        ruleset.name, seat, options, humans)
    assert view["counts"] == [len(hand) for hand in hands]
    assert ("hand" in view) == (seat is not None)
    if seat is not None:
        assert [card["id"] for card in view["hand"]] == hands[seat]


def check_views(ruleset, state, setup: tuple) -> None:
    table = ruleset.table(state)
    assert table.phase in PHASES and len(table.seating) == table.players
    full = ruleset.full_view(state)
    hands = [list(hand) for hand in ruleset.view_facts(state).hands]
    assert [[card["id"] for card in hand] for hand in full.get("hands", [])] in ([], hands)
    hidden = card_ids(full) - card_ids(ruleset.view(state, None))
    for seat in [None, *range(table.players)]:
        view = ruleset.view(state, seat)
        parse(ruleset.info.view, view, "bad_view")
        check_shared_words(ruleset, table, hands, view, seat, setup)
        leaked = card_ids(view) & hidden.difference(() if seat is None else hands[seat])
        assert not leaked, f"a view shows cards hidden from its seat: {sorted(leaked)}"
    json.dumps(full)


def check_events(ruleset, state, events: list[dict]) -> None:
    """Each event as its ruleset's spec says (an unknown type or field is refused), naming no
    card that is hidden from some seat in `state`, the state the events led to."""
    for event in json.loads(json.dumps(events)):
        parse(ruleset.info.events, event, "bad_event")
    named = card_ids(events)
    if named:
        leaked = named & secrets(ruleset, state)
        assert not leaked, f"an event shows cards hidden from some seat: {sorted(leaked)}"


def check_step(ruleset, state, seat, action) -> None:
    """The rollouts' `step` leaves the state `apply` does; a round it ends may stay unsettled."""
    applied, _ = ruleset.apply(state, seat, action)
    stepped = ruleset.step(state, seat, action)
    if ruleset.round_over(applied):
        assert ruleset.round_over(stepped)
        assert ruleset.view_facts(stepped) == ruleset.view_facts(applied)
    else:
        assert stepped == applied


def check_listed_actions(ruleset, state, seat, rng) -> list:
    legal = ruleset.legal_actions(state, seat)
    assert legal, "a seat to act has something to do"
    for action in legal:
        assert ruleset.is_legal(state, seat, action)
        check_step(ruleset, state, seat, action)
        again = action_from_dict(json.loads(json.dumps(action.to_dict())))
        assert ruleset.is_legal(state, seat, again)
        if isinstance(action, Play) and action.extras:
            hand = tuple(c["id"] for c in ruleset.view(state, seat)["hand"])
            extras = rng.sample(ruleset.extra_candidates(hand, action),
                                rng.randint(0, action.extras))
            assert ruleset.is_legal(state, seat, action.with_extras(extras))
            check_step(ruleset, state, seat, action.with_extras(extras))
    others = [s for s in range(ruleset.table(state).players) if s != seat]
    if others:
        assert not ruleset.is_legal(state, others[0], legal[0])
    return legal


def keep_the_contract(ruleset, players: int, seed: int) -> None:
    """A random match of `ruleset` at `players` seats, checked at every step."""
    rng = random.Random(f"{ruleset.name}-{players}-{seed}")
    options = ruleset.parse_options({"players": players})
    humans = [True] + [False] * (players - 1)
    setup = (options, humans)
    state = ruleset.new_match(options, humans)
    check_views(ruleset, state, setup)
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
                check_views(ruleset, state, setup)
                action = rng.choice(check_listed_actions(ruleset, state, seat, rng))
            state, events = ruleset.apply(state, seat, action)
            check_events(ruleset, state, events)
            state = ruleset.remember(state, events)  # as the service does after each action
            moves.append((len(seeds), seat, action))
            assert ruleset.from_json(json.loads(json.dumps(ruleset.to_json(state)))) == state
        check_views(ruleset, state, setup)
        result = ruleset.round_result(state)
        json.dumps(result)
        assert sum(result["deltas"]) == 0 and result["winners"]
        after = ruleset.table(state).scores
        assert [a - b for a, b in zip(after, before, strict=True)] == result["deltas"]
    assert replay(ruleset, options, humans, seeds, moves) == state
    check_sides(ruleset.sides(state), players)


def check_sides(sides: list[dict], players: int) -> None:
    """Every seat on one side; ranks from 1, best first, a tie sharing one."""
    assert sorted(s for side in sides for s in side["seats"]) == list(range(players))
    ranks = [side["rank"] for side in sides]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    assert all(r == ranks[i - 1] or r == i + 1 for i, r in enumerate(ranks) if i)


@pytest.mark.parametrize(("ruleset", "players"), list(setups()))
@pytest.mark.parametrize("seed", range(3))
def test_random_matches_keep_the_contract(ruleset, players, seed):
    keep_the_contract(ruleset, players, seed)


@pytest.mark.parametrize("leaky", [EventsShowHands(), ViewShowsHand()], ids=lambda r: r.name)
def test_a_planted_leak_breaks_the_contract(leaky):
    keep_the_contract(HIGHCARD, 3, 0)
    with pytest.raises(AssertionError, match="cards hidden from"):
        keep_the_contract(leaky, 3, 0)


@pytest.mark.parametrize("event", [
    {"type": "deal", "seat": 0},
    {"type": "trick_won", "seat": 0, "cards": []},
    {"type": "trick_won", "seat": "0"},
], ids=["unknown type", "unknown field", "wrong type"])
def test_an_event_beyond_its_spec_breaks_the_contract(event):
    state = HIGHCARD.start_round(HIGHCARD.new_match({"players": 2}, [True, False]), "spec")
    check_events(HIGHCARD, state, [])
    with pytest.raises(IllegalAction) as refused:
        check_events(HIGHCARD, state, [event])
    assert refused.value.code == "bad_event"
