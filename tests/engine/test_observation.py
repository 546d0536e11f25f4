"""What a seat observes (the value bots decide on) holds nothing it may not know: the same
observation whatever the cards it cannot see, moved between the other hands, the pile or the
bottom."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.registry import get_ruleset
from games.engine.rulesets.five_ten_k import playout as five_ten_k_playout
from games.engine.rulesets.five_ten_k.observation import observe as observe_510k
from games.engine.rulesets.gandengyan import playout as gandengyan_playout
from games.engine.rulesets.gandengyan.observation import observe as observe_gandengyan
from games.engine.rulesets.gandengyan.state import sort_hand

SETUPS = [("510k", {"players": 4}), ("510k", {"players": 2}),
          ("gandengyan", {"players": 4, "decks": 1}), ("gandengyan", {"players": 6, "decks": 2})]
OBSERVE = {"510k": observe_510k, "gandengyan": observe_gandengyan}
STEPS = {"510k": five_ten_k_playout.random_steps, "gandengyan": gandengyan_playout.random_steps}


def _midround(name: str, options: dict, seed: int, steps: int):
    engine = get_ruleset(name)
    state = engine.new_match(engine.parse_options(options), [False] * options["players"])
    state = engine.start_round(state, f"observed-{seed}")
    return engine, STEPS[name](state, random.Random(seed), steps)[0]


def _places(name: str, state, seat: int) -> list[str]:
    """Where the cards `seat` cannot see lie: the other hands (those whose content is public
    left out) and the pile or the bottom."""
    rnd = state.round
    hands = [f"hand{s}" for s in range(len(rnd.hands)) if s != seat and rnd.hands[s]
             and not (name == "gandengyan" and rnd.forfeited[s])]  # jokers only: public
    return [*hands, "pile" if name == "gandengyan" else "bottom"]


def _cards(rnd, place: str) -> tuple[int, ...]:
    return rnd.hands[int(place[4:])] if place.startswith("hand") else getattr(rnd, place)


def _with(name: str, rnd, place: str, cards: list[int]):
    if place.startswith("hand"):
        hands = list(rnd.hands)
        hands[int(place[4:])] = sort_hand(cards) if name == "gandengyan" else tuple(sorted(cards))
        return rnd._replace(hands=tuple(hands))
    return rnd._replace(**{place: tuple(cards)})


def _swapped(name: str, state, seat: int, rng: random.Random):
    """`state` with hidden cards swapped between two places (each keeps its count) and the
    pile or bottom shuffled. The 明牌 stays with its holder: where it lies is public."""
    rnd = state.round
    places = [p for p in _places(name, state, seat) if _cards(rnd, p)]
    if len(places) < 2:
        return None
    first, second = rng.sample(places, 2)
    a, b = list(_cards(rnd, first)), list(_cards(rnd, second))
    pinned = getattr(rnd, "face_up", None)
    movable_a = [i for i, c in enumerate(a) if c != pinned]
    movable_b = [i for i, c in enumerate(b) if c != pinned]
    for _ in range(min(len(movable_a), len(movable_b), rng.randint(1, 5))):
        i, j = rng.choice(movable_a), rng.choice(movable_b)
        a[i], b[j] = b[j], a[i]
    rnd = _with(name, _with(name, rnd, first, a), second, b)
    heap = "pile" if name == "gandengyan" else "bottom"
    shuffled = list(getattr(rnd, heap))
    rng.shuffle(shuffled)
    return state._replace(round=_with(name, rnd, heap, shuffled))


@settings(max_examples=60, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), steps=st.integers(0, 120),
       swap_seed=st.integers(0, 10**6))
def test_an_observation_is_the_same_whatever_the_hidden_cards(setup, seed, steps, swap_seed):
    name, options = setup
    engine, state = _midround(name, options, seed, steps)
    if engine.round_over(state):
        return
    rng = random.Random(swap_seed)
    for seat in range(options["players"]):
        other = _swapped(name, state, seat, rng)
        if other is None:
            continue
        assert other.round.hands[seat] == state.round.hands[seat]
        assert OBSERVE[name](other, seat) == OBSERVE[name](state, seat)


def test_the_swap_does_move_hidden_cards():
    # The test above would pass trivially if nothing moved.
    engine, state = _midround("gandengyan", {"players": 4, "decks": 1}, 1, 4)
    other = _swapped("gandengyan", state, 0, random.Random(1))
    assert other.round.hands != state.round.hands or other.round.pile != state.round.pile
