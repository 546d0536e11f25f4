"""`FiveTenK`: the 510k ruleset behind the shared `Ruleset` interface."""

from collections.abc import Sequence

from games.engine.actions import Action, Play
from games.engine.combos import Reading
from games.engine.errors import IllegalAction
from games.engine.ruleset import Ruleset, RulesetInfo, Table, ViewFacts
from games.engine.rulesets.five_ten_k import guide, settle, views
from games.engine.rulesets.five_ten_k import round as flow
from games.engine.rulesets.five_ten_k.combos import PACK, beats, readings_of
from games.engine.rulesets.five_ten_k.listing import extra_candidates
from games.engine.rulesets.five_ten_k.state import (
    OPTIONS,
    Match,
    Options,
    match_from_json,
    match_to_json,
)

INFO = RulesetInfo(
    name="510k",
    title={"en": "510K", "zh": "五十K"},
    players=settle.PLAYERS,
    options=OPTIONS,
    view=views.VIEW,
    events=views.EVENTS,
    settle_facts=settle.FACTS,
    how_to_play=guide.HOW_TO_PLAY,
    settle_example=settle.EXAMPLE,
)


class FiveTenK(Ruleset[Match]):
    info = INFO

    def pack(self, options: dict) -> tuple[int, ...]:
        return PACK

    def readings(self, options: dict, cards: tuple[int, ...]) -> list[Reading]:
        return readings_of(tuple(cards))  # options change nothing

    def beats(self, options: dict, play: Reading, previous: Reading) -> bool:
        return beats(play, previous)

    def settle_facts(self, options: dict, facts: dict) -> dict:
        return settle.settle_facts(options, facts)

    def new_match(self, options: dict, humans: Sequence[bool]) -> Match:
        parsed = Options(**self.parse_options(options))
        if len(humans) != parsed.players:
            raise IllegalAction(
                "invalid_option", f"{parsed.players} players need {parsed.players} seats",
                option="players",
            )
        return Match(options=parsed, humans=tuple(bool(h) for h in humans),
                     scores=(0,) * parsed.players)

    def start_round(self, state: Match, seed: str) -> Match:
        if not self.table(state).needs_round:
            raise IllegalAction("wrong_phase", "a round is in play or the match is over")
        return state._replace(round=flow.new_round(state, seed))

    def table(self, state: Match) -> Table:
        rnd = state.round
        players = state.options.players
        return Table(players=players, phase=views.phase(state),
                     round=0 if rnd is None else rnd.number,
                     to_act=None if rnd is None else rnd.to_act,
                     seating=tuple(range(players)) if rnd is None else rnd.seating,
                     eliminated=(False,) * players, scores=state.scores)

    def to_act(self, state: Match) -> int | None:
        return None if state.round is None else state.round.to_act

    def round_over(self, state: Match) -> bool:
        return state.round is not None and state.round.phase == "over"

    def legal_actions(self, state: Match, seat: int) -> list[Action]:
        return flow.legal_actions(state, seat)

    def extra_candidates(self, hand: tuple[int, ...], play: Play) -> tuple[int, ...]:
        return extra_candidates(hand, play)

    def apply(self, state: Match, seat: int, action: Action) -> tuple[Match, list[dict]]:
        return flow.apply(state, seat, action)

    def step(self, state: Match, seat: int, action: Action) -> Match:
        return flow.step(state, seat, action)

    def forced_action(self, state: Match) -> Action | None:
        return flow.forced_action(state)

    def view_facts(self, state: Match) -> ViewFacts:
        rnd = state.round
        return ViewFacts(state.options._asdict(), state.humans,
                         ((),) * state.options.players if rnd is None else rnd.hands,
                         () if rnd is None else rnd.trick, views.played(state))

    def view_fields(self, state: Match) -> dict:
        return views.own_fields(state)

    def full_view(self, state: Match) -> dict:
        return {**self.view(state, None), **views.hidden(state)}

    def round_result(self, state: Match) -> dict:
        return views.round_result(state)

    def standings(self, state: Match) -> list[dict]:
        return flow.standings(state.scores)

    def sides(self, state: Match) -> list[dict]:
        return flow.sides(state)

    def to_json(self, state: Match) -> dict:
        return match_to_json(state)

    def from_json(self, data: dict) -> Match:
        return match_from_json(data)
