"""Rebuild a match from its options, round seeds and action log: the move log is the truth,
the stored snapshot only a cache of it."""

from collections.abc import Iterable, Sequence

from games.engine.actions import Action
from games.engine.ruleset import Ruleset


def replay(
    ruleset: Ruleset,
    options: dict,
    humans: Sequence[bool],
    seeds: Sequence[str],
    moves: Iterable[tuple[int, int, Action]],
):
    """`moves` are (round number from 1, seat, action) in log order, automatic ones included."""
    state = ruleset.new_match(options, humans)
    played = 0
    for round_number, seat, action in moves:
        while played < round_number:
            state = ruleset.start_round(state, seeds[played])
            played += 1
        state, events = ruleset.apply(state, seat, action)
        state = ruleset.remember(state, events)
    while played < len(seeds) and ruleset.table(state).needs_round:
        state = ruleset.start_round(state, seeds[played])
        played += 1
    return state
