"""`FiveTenK`: the 510k ruleset behind the shared `Ruleset` interface."""

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.actions import Action
from games.engine.combos import Reading
from games.engine.errors import IllegalAction
from games.engine.ruleset import Ruleset
from games.engine.rulesets.five_ten_k import round as flow
from games.engine.rulesets.five_ten_k import views
from games.engine.rulesets.five_ten_k.combos import PACK, beats, readings_of
from games.engine.rulesets.five_ten_k.state import (
    Match,
    match_from_json,
    match_to_json,
    parse_options,
)


def readings(options: dict, cards) -> list[Reading]:
    """Every legal reading of `cards` as one play (the rules endpoint); options change nothing."""
    return readings_of(tuple(cards))


class FiveTenK(Ruleset):
    name = "510k"

    def parse_options(self, raw: Mapping[str, Any] | None) -> dict:
        return parse_options(raw)._asdict()

    def pack(self, options: dict) -> tuple[int, ...]:
        return PACK

    def readings(self, options: dict, cards: tuple[int, ...]) -> list[Reading]:
        return readings(options, cards)

    def beats(self, options: dict, play: Reading, previous: Reading) -> bool:
        return beats(play, previous)

    def new_match(self, options: dict, humans: Sequence[bool]) -> Match:
        parsed = parse_options(options)
        if len(humans) != parsed.players:
            raise IllegalAction(
                "invalid_option", f"{parsed.players} players need {parsed.players} seats",
                option="players",
            )
        return Match(options=parsed, humans=tuple(bool(h) for h in humans),
                     scores=(0,) * parsed.players)

    def start_round(self, state: Match, seed: str) -> Match:
        if not self.needs_round(state):
            raise IllegalAction("wrong_phase", "a round is in play or the match is over")
        return state._replace(round=flow.new_round(state, seed))

    def needs_round(self, state: Match) -> bool:
        rnd = state.round
        return rnd is None or (rnd.phase == "over" and rnd.number < state.options.rounds)

    def to_act(self, state: Match) -> int | None:
        return None if state.round is None else state.round.to_act

    def legal_actions(self, state: Match, seat: int) -> list[Action]:
        return flow.legal_actions(state, seat)

    def apply(self, state: Match, seat: int, action: Action) -> tuple[Match, list[dict]]:
        return flow.apply(state, seat, action)

    def forced_action(self, state: Match) -> Action | None:
        return flow.forced_action(state)

    def view(self, state: Match, seat: int | None) -> dict:
        if seat is None:
            return views.public_view(state)
        return views.seat_view(state, seat)

    def full_view(self, state: Match) -> dict:
        return views.full_view(state)

    def round_over(self, state: Match) -> bool:
        return state.round is not None and state.round.phase == "over"

    def round_result(self, state: Match) -> dict:
        return views.round_result(state)

    def match_over(self, state: Match) -> bool:
        return self.round_over(state) and state.round.number >= state.options.rounds

    def scores(self, state: Match) -> list[int]:
        return list(state.scores)

    def standings(self, state: Match) -> list[dict]:
        return flow.standings(state.scores)

    def to_json(self, state: Match) -> dict:
        return match_to_json(state)

    def from_json(self, data: dict) -> Match:
        return match_from_json(data)
