"""510k invariants over seeded random playouts: listed actions are accepted, sets outside the
listing are refused, cards and points are conserved, rounds sum to zero, replay is exact."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.actions import Pass, Play
from games.engine.cards import RANK_OF
from games.engine.errors import IllegalAction
from games.engine.replay import replay
from games.engine.rulesets.five_ten_k.combos import PACK, points_of
from games.engine.rulesets.five_ten_k.listing import MAX_EXTRA_OF_RANK, with_random_extras
from games.engine.rulesets.five_ten_k.playout import random_round, random_steps
from tests.engine.five_ten_k_support import RULES


def listed_choice(match, rng):
    """A uniformly random action of the public listing, extras drawn at random."""
    seat = RULES.to_act(match)
    action = rng.choice(RULES.legal_actions(match, seat))
    if isinstance(action, Play):
        action = with_random_extras(match.round.hands[seat], action, rng)
    return seat, action


def check_conservation(match, played: list[int]) -> None:
    rnd = match.round
    held = [c for hand in rnd.hands for c in hand]
    everything = held + played + list(rnd.bottom)
    assert len(everything) == len(set(everything)) == len(PACK)
    assert set(everything) == set(PACK)
    on_table = [c for p in rnd.trick for c in p.cards]
    assert set(on_table) <= set(played)
    points = sum(rnd.captured) + points_of(held) + points_of(on_table) + points_of(rnd.bottom)
    assert points == 200


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([4, 2]))
def test_random_matches_keep_every_invariant_and_replay_exactly(seed, players):
    rng = random.Random(seed)
    options = RULES.parse_options({"players": players, "rounds": 2})
    humans = [False] * players
    match = RULES.new_match(options, humans)
    seeds, moves = [], []
    while RULES.table(match).needs_round:
        seeds.append(f"{seed}/{len(seeds)}")
        match = RULES.start_round(match, seeds[-1])
        before = list(RULES.table(match).scores)
        played: list[int] = []
        while not RULES.round_over(match):
            forced = RULES.forced_action(match)
            if forced is not None:
                assert RULES.legal_actions(match, RULES.to_act(match)) == [Pass()]
            seat, action = listed_choice(match, rng)
            match, events = RULES.apply(match, seat, action)
            moves.append((len(seeds), seat, action))
            played += [c["id"] for e in events if e["type"] == "play" for c in e["cards"]]
            if match.round.phase != "cut":
                check_conservation(match, played)
        result = RULES.round_result(match)
        assert sum(result["deltas"]) == 0
        scores = RULES.table(match).scores
        assert list(scores) == [b + d for b, d in zip(before, result["deltas"], strict=True)]
        assert result["settlement"]["winner_seats"]
    assert RULES.table(match).match_over and sum(list(RULES.table(match).scores)) == 0
    assert replay(RULES, options, humans, seeds, moves) == match
    assert RULES.from_json(RULES.to_json(match)) == match


def fits(subset, hand, actions) -> bool:
    """Whether `subset` is some listed core plus extras it allows (ranks only: suits never
    matter)."""
    want = Counter(RANK_OF[c] for c in subset)
    for play in actions:
        if not isinstance(play, Play):
            continue
        core = Counter(RANK_OF[c] for c in play.cards)
        if any(want[r] < n for r, n in core.items()):
            continue
        extras = want - core
        if sum(extras.values()) > play.extras:
            continue
        if all(r not in core and n <= MAX_EXTRA_OF_RANK for r, n in extras.items()):
            return True
    return False


def midround(seed: int, steps: int, players: int):
    """A seeded random 4- or 2-player round some steps into its play phase."""
    rng = random.Random(seed)
    match = RULES.start_round(RULES.new_match({"players": players}, [False] * players), str(seed))
    match, _ = random_steps(match, rng, steps)
    while match.round.phase in ("cut", "bid"):
        match, _ = random_steps(match, rng, 1)
    return match


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 80),
    players=st.sampled_from([4, 2]),
    data=st.data(),
)
def test_a_set_is_accepted_exactly_when_the_listing_allows_it(seed, steps, players, data):
    match = midround(seed, steps, players)
    if RULES.round_over(match):
        return
    seat = RULES.to_act(match)
    hand = match.round.hands[seat]
    listed = RULES.legal_actions(match, seat)
    core = data.draw(st.sampled_from(listed))
    # Half the time a listed core with random extras, half the time any subset of the hand.
    if isinstance(core, Play) and data.draw(st.booleans()):
        subset = with_random_extras(hand, core, random.Random(seed)).cards
    else:
        size = data.draw(st.integers(1, min(10, len(hand))))
        subset = tuple(data.draw(st.permutations(hand))[:size])
    try:
        RULES.apply(match, seat, Play(subset))
        accepted = True
    except IllegalAction as err:
        assert err.code in ("not_a_combination", "does_not_beat", "ambiguous_play")
        accepted = err.code == "ambiguous_play"
    assert accepted == fits(subset, hand, listed)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_playout_helper_plays_whole_rounds(seed):
    match = RULES.new_match({"players": 4, "rounds": 1}, [False] * 4)
    match, moves = random_round(match, str(seed), random.Random(seed))
    assert RULES.table(match).match_over
    assert replay(RULES, match.options._asdict(), [False] * 4, [str(seed)], moves) == match
