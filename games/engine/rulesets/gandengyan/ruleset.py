"""The gandengyan (干瞪眼) ruleset behind the common Ruleset interface."""

from collections.abc import Sequence

from games.engine.actions import Action, Pass, Play
from games.engine.cards import PER_DECK, make_pack
from games.engine.combos import Reading
from games.engine.errors import IllegalAction
from games.engine.ruleset import Ruleset, RulesetInfo, Table, ViewFacts
from games.engine.rulesets.gandengyan import combos, flow, guide, settle, views
from games.engine.rulesets.gandengyan.state import (
    LOG_TAIL,
    LOGGED,
    OPTIONS,
    ROUND,
    Logged,
    Match,
    Round,
    logged_from_event,
    match_from_json,
    match_to_json,
    put,
)

PASS = Pass()
INFO = RulesetInfo(
    name="gandengyan",
    title={"en": "Gandengyan", "zh": "干瞪眼"},
    players=settle.PLAYERS,
    options=OPTIONS,
    view=views.VIEW,
    events=views.EVENTS,
    settle_facts=settle.FACTS,
    how_to_play=guide.HOW_TO_PLAY,
    settle_example=settle.EXAMPLE,
)


def _check_ids(cards: Sequence[int], decks: int) -> frozenset[int]:
    limit = PER_DECK * decks
    for card in cards:
        if type(card) is not int or not 0 <= card < limit:
            raise IllegalAction("unknown_card", f"{card!r} is not a card of this pack", card=card)
    chosen = frozenset(cards)
    if len(chosen) != len(cards):
        repeated = sorted({c for c in cards if cards.count(c) > 1})
        raise IllegalAction("duplicate_card", "a card appears twice in the play", cards=repeated)
    return chosen


def _previous(rnd: Round) -> Reading | None:
    return rnd.trick[-1].reading if rnd.trick else None


class Gandengyan(Ruleset[Match]):
    info = INFO
    remembers = True

    def pack(self, options: dict) -> tuple[int, ...]:
        return make_pack(options["decks"])

    def readings(self, options: dict, cards: tuple[int, ...]) -> list[Reading]:
        """Refuses ids outside the pack and repeated ids (unknown_card / duplicate_card)."""
        decks = options["decks"]
        _check_ids(cards, decks)
        return list(combos.readings_of_counts(combos.rank_counts(cards), combos.bomb_cap(decks)))

    def beats(self, options: dict, play: Reading, previous: Reading) -> bool:
        return combos.beats(play, previous)  # the pack size changes nothing in the comparison

    def settle_facts(self, options: dict, facts: dict) -> dict:
        return settle.settle_facts(options, facts)

    # -- lifecycle ---------------------------------------------------------------------------

    def new_match(self, options: dict, humans: Sequence[bool]) -> Match:
        options = self.parse_options(options)
        players = options["players"]
        if len(humans) != players or not all(isinstance(h, bool) for h in humans):
            raise IllegalAction(
                "invalid_option", f"one human flag (true/false) per seat: {players} seats",
                option="players",
            )
        return Match(options["decks"], players, options["starting_score"], tuple(humans),
                     (options["starting_score"],) * players, (False,) * players, None)

    def start_round(self, state: Match, seed: str) -> Match:
        phase = flow.phase(state)
        if phase == "match_over":
            raise IllegalAction("match_over", "the match is over")
        if phase == "play":
            raise IllegalAction("wrong_phase", "a round is being played")
        return put(state, ROUND, flow.deal(state, seed))

    def table(self, state: Match) -> Table:
        rnd = state.round
        return Table(players=state.players, phase=flow.phase(state),
                     round=0 if rnd is None else rnd.number,
                     to_act=None if rnd is None else rnd.to_act,
                     seating=tuple(range(state.players)), eliminated=state.eliminated,
                     scores=state.scores)

    def to_act(self, state: Match) -> int | None:
        return None if state.round is None else state.round.to_act

    def round_over(self, state: Match) -> bool:
        return state.round is not None and state.round.winner is not None

    # -- actions -----------------------------------------------------------------------------

    def legal_actions(self, state: Match, seat: int) -> list[Action]:
        rnd = state.round
        if rnd is None or rnd.to_act != seat:
            return []
        actions: list[Action] = combos.legal_plays(
            rnd.hands[seat], _previous(rnd), combos.bomb_cap(state.decks)
        )
        if rnd.trick:
            actions.append(PASS)
        return actions

    def forced_action(self, state: Match) -> Action | None:
        seat = self.to_act(state)
        if seat is None or not state.round.trick:
            return None
        return PASS if self.legal_actions(state, seat) == [PASS] else None

    def apply(self, state: Match, seat: int, action: Action) -> tuple[Match, list[dict]]:
        rnd = state.round
        if rnd is None or rnd.winner is not None:
            if flow.finished(state):
                raise IllegalAction("match_over", "the match is over")
            if rnd is None:
                raise IllegalAction("wrong_phase", "no round has been dealt yet")
            raise IllegalAction("round_over", "the round is over")
        if seat != rnd.to_act:
            raise IllegalAction("not_your_turn", f"seat {rnd.to_act} is to act",
                                to_act=rnd.to_act)
        events: list[dict] = []
        if type(action) is Pass:
            if not rnd.trick:
                raise IllegalAction("must_play", "a free lead cannot be passed")
            after = flow.pass_turn(rnd, seat, events)
        elif type(action) is Play:
            chosen, reading = self._check_play(state, rnd, seat, action)
            after = flow.play(rnd, seat, chosen, reading, events)
        else:
            raise IllegalAction("invalid_action", "gandengyan takes plays and passes only",
                                action=type(action).__name__)
        state = put(state, ROUND, after)
        if after.winner is not None:
            state = self._close_round(state, events)
        return state, events

    def step(self, state: Match, seat: int, action: Action) -> Match:
        rnd = state.round
        if type(action) is Pass:
            return put(state, ROUND, flow.pass_turn(rnd, seat, None))
        return put(state, ROUND, flow.play(rnd, seat, frozenset(action.cards), action.reading,
                                           None))

    def remember(self, state: Match, events: Sequence[dict], whole: bool = False) -> Match:
        rnd = state.round
        if rnd is None:
            return state
        new = tuple(logged_from_event(e) for e in events if e["type"] in LOGGED)
        if whole:  # the deal's draw (of the leader) is in no stored event
            log = (Logged("draw", rnd.leader), *new)
        elif new:
            log = (rnd.log + new)[-LOG_TAIL:]
        else:
            return state
        return put(state, ROUND, rnd._replace(log=log))

    def _check_play(self, state: Match, rnd: Round, seat: int,
                    action: Play) -> tuple[frozenset[int], Reading]:
        if action.extras:
            raise IllegalAction("invalid_action", "gandengyan plays carry no extra cards")
        cards = action.cards
        chosen = _check_ids(cards, state.decks)
        missing = chosen.difference(rnd.hands[seat])
        if missing:
            raise IllegalAction("card_not_in_hand", "those cards are not in your hand",
                                cards=sorted(missing))
        found = combos.readings_of_counts(combos.rank_counts(cards), combos.bomb_cap(state.decks))
        if not found:
            raise IllegalAction("not_a_combination", "those cards are not a combination")
        previous = _previous(rnd)
        named = action.reading
        legal = found if named is None else [r for r in found if r.named_by(named)]
        if not legal:
            raise IllegalAction("not_a_combination", "those cards cannot be read so",
                                reading=named.to_dict())
        if previous is not None:
            legal = [r for r in legal if combos.beats(r, previous)]
            if not legal:
                raise IllegalAction("does_not_beat", "that does not beat the table",
                                    previous=previous.to_dict())
        if len(legal) > 1:
            raise IllegalAction(
                "ambiguous_play", "those cards can be read several ways: name one",
                readings=[r.to_dict() for r in legal],
            )
        return chosen, legal[0]

    def _close_round(self, state: Match, events: list[dict]) -> Match:
        rnd = state.round
        deltas = flow.settle(state)["deltas"]
        scores = tuple(s + d for s, d in zip(state.scores, deltas, strict=True))
        events.append({"type": "round_end", "winner": rnd.winner, "deltas": deltas,
                       "reason": views.end_reason(rnd)})
        eliminated = list(state.eliminated)
        for seat, score in enumerate(scores):
            if score <= 0 and not eliminated[seat]:
                eliminated[seat] = True
                events.append({"type": "eliminated", "seat": seat, "score": score})
        state = state._replace(scores=scores, eliminated=tuple(eliminated))
        if flow.finished(state):
            events.append({"type": "match_end", "standings": self.standings(state)})
        return state

    # -- what seats see ----------------------------------------------------------------------

    def view_facts(self, state: Match) -> ViewFacts:
        rnd = state.round
        return ViewFacts(state.options, state.humans,
                         ((),) * state.players if rnd is None else rnd.hands,
                         () if rnd is None else rnd.trick, views.played(state))

    def view_fields(self, state: Match) -> dict:
        return views.own_fields(state)

    def full_view(self, state: Match) -> dict:
        return {**self.view(state, None), **views.hidden(state)}

    def round_result(self, state: Match) -> dict:
        if not self.round_over(state):
            raise IllegalAction("wrong_phase", "no round has ended")
        return views.round_result(state)

    def standings(self, state: Match) -> list[dict]:
        order = sorted(range(state.players), key=lambda s: (-state.scores[s], s))
        return [{"seat": s, "score": state.scores[s], "rank": i + 1,
                 "eliminated": state.eliminated[s]} for i, s in enumerate(order)]

    def to_json(self, state: Match) -> dict:
        return match_to_json(state)

    def from_json(self, data: dict) -> Match:
        return match_from_json(data)

