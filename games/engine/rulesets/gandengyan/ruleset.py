"""The gandengyan (干瞪眼) ruleset behind the common Ruleset interface."""

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.actions import Action, Pass, Play
from games.engine.cards import PER_DECK, RANK_OF, code, make_pack, wire
from games.engine.combos import Reading
from games.engine.errors import IllegalAction
from games.engine.ruleset import Ruleset
from games.engine.rulesets.gandengyan import combos, flow
from games.engine.rulesets.gandengyan.state import (
    ROUND,
    Match,
    Round,
    match_from_json,
    match_to_json,
    parse_options,
    put,
)

PASS = Pass()
LAST_TABLE = 3  # the match ends when at most this many seats are left


def readings(options: Mapping[str, Any] | None, cards: Sequence[int]) -> list[Reading]:
    """Every reading of `cards` as one play, out of context; refuses ids outside the pack and
    repeated ids (IllegalAction unknown_card / duplicate_card)."""
    decks = parse_options(options)["decks"]
    _check_ids(cards, decks)
    return list(combos.readings_of_counts(combos.rank_counts(cards), combos.bomb_cap(decks)))


def beats(options: Mapping[str, Any] | None, play: Reading, previous: Reading) -> bool:
    """Whether `play` may go on `previous`; the pack size changes nothing in the comparison."""
    return combos.beats(play, previous)


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
    return rnd.table[-1].reading if rnd.table else None


def _phase(state: Match) -> str:
    if _finished(state):
        return "match_over"
    if state.round is None:
        return "waiting"
    return "playing" if state.round.winner is None else "round_over"


def _finished(state: Match) -> bool:
    live = [not out for out in state.eliminated]
    if sum(live) <= LAST_TABLE:
        return True
    return any(state.humans) and not any(h and up for h, up in zip(state.humans, live, strict=True))


class Gandengyan(Ruleset):
    name = "gandengyan"

    def parse_options(self, raw: Mapping[str, Any] | None) -> dict:
        return parse_options(raw)

    def pack(self, options: dict) -> tuple[int, ...]:
        return make_pack(options["decks"])

    def readings(self, options: dict, cards: tuple[int, ...]) -> list[Reading]:
        return readings(options, cards)

    def beats(self, options: dict, play: Reading, previous: Reading) -> bool:
        return beats(options, play, previous)

    # -- lifecycle ---------------------------------------------------------------------------

    def new_match(self, options: dict, humans: Sequence[bool]) -> Match:
        options = parse_options(options)
        players = options["players"]
        if len(humans) != players or not all(isinstance(h, bool) for h in humans):
            raise IllegalAction(
                "invalid_option", f"one human flag (true/false) per seat: {players} seats",
                option="players",
            )
        return Match(options["decks"], players, options["starting_score"], tuple(humans),
                     (options["starting_score"],) * players, (False,) * players, None)

    def start_round(self, state: Match, seed: str) -> Match:
        if _finished(state):
            raise IllegalAction("match_over", "the match is over")
        if not self.needs_round(state):
            raise IllegalAction("wrong_phase", "a round is being played")
        return put(state, ROUND, flow.deal(state, seed))

    def needs_round(self, state: Match) -> bool:
        return not _finished(state) and (state.round is None or state.round.winner is not None)

    def to_act(self, state: Match) -> int | None:
        return None if state.round is None else state.round.to_act

    def round_over(self, state: Match) -> bool:
        return state.round is not None and state.round.winner is not None

    def match_over(self, state: Match) -> bool:
        return _finished(state)

    # -- actions -----------------------------------------------------------------------------

    def legal_actions(self, state: Match, seat: int) -> list[Action]:
        rnd = state.round
        if rnd is None or rnd.to_act != seat:
            return []
        actions: list[Action] = combos.legal_plays(
            rnd.hands[seat], _previous(rnd), combos.bomb_cap(state.decks)
        )
        if rnd.table:
            actions.append(PASS)
        return actions

    def forced_action(self, state: Match) -> Action | None:
        seat = self.to_act(state)
        if seat is None or not state.round.table:
            return None
        return PASS if self.legal_actions(state, seat) == [PASS] else None

    def apply(self, state: Match, seat: int, action: Action) -> tuple[Match, list[dict]]:
        rnd = state.round
        if rnd is None or rnd.winner is not None:
            if _finished(state):
                raise IllegalAction("match_over", "the match is over")
            if rnd is None:
                raise IllegalAction("wrong_phase", "no round has been dealt yet")
            raise IllegalAction("round_over", "the round is over")
        if seat != rnd.to_act:
            raise IllegalAction("not_your_turn", f"seat {rnd.to_act} is to act",
                                to_act=rnd.to_act)
        events: list[dict] = []
        if type(action) is Pass:
            if not rnd.table:
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
                       "reason": _end_reason(rnd)})
        eliminated = list(state.eliminated)
        for seat, score in enumerate(scores):
            if score <= 0 and not eliminated[seat]:
                eliminated[seat] = True
                events.append({"type": "eliminated", "seat": seat, "score": score})
        state = state._replace(scores=scores, eliminated=tuple(eliminated))
        if _finished(state):
            events.append({"type": "match_end", "standings": self.standings(state)})
        return state

    # -- what seats see ----------------------------------------------------------------------

    def view(self, state: Match, seat: int | None) -> dict:
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"no seat {seat!r} in a {state.players}-seat match")
        rnd = state.round
        data = {
            "ruleset": self.name,
            "options": state.options,
            "phase": _phase(state),
            "round": 0 if rnd is None else rnd.number,
            "to_act": self.to_act(state),
            "seat": seat,
            "scores": list(state.scores),
            "seats": [
                {"seat": s, "human": state.humans[s], "cards": len(rnd.hands[s]) if rnd else 0,
                 "score": state.scores[s], "eliminated": state.eliminated[s],
                 "forfeited": bool(rnd and rnd.forfeited[s]),
                 "played_any": bool(rnd and rnd.played_any[s])}
                for s in range(state.players)
            ],
            "leader": None if rnd is None else rnd.leader,
            "dice": [] if rnd is None else list(rnd.dice),
            "free_lead": bool(rnd and rnd.winner is None and not rnd.table),
            "table": [] if rnd is None else [
                {"seat": t.seat, "cards": [wire(c) for c in t.cards],
                 "reading": t.reading.to_dict(), "latest": i == len(rnd.table) - 1}
                for i, t in enumerate(rnd.table)
            ],
            "pile": 0 if rnd is None else len(rnd.pile),
            "bombs": [] if rnd is None else list(rnd.bombs),
            # Cards that have left the hands this round: public (every play was seen), and
            # what a bot needs to know which cards are still out.
            "played": [] if rnd is None else _played(state.decks, rnd),
            "winner": None if rnd is None else rnd.winner,
        }
        if seat is not None:
            hand = rnd.hands[seat] if rnd else ()
            usable = {RANK_OF[c] for play in self.legal_actions(state, seat)
                      if type(play) is Play for c in play.cards}
            data["hand"] = [{"id": c, "code": code(c), "playable": RANK_OF[c] in usable}
                            for c in hand]
        return data

    def full_view(self, state: Match) -> dict:
        data = self.view(state, None)
        rnd = state.round
        data["hands"] = [[wire(c) for c in hand] for hand in rnd.hands] if rnd else []
        data["pile_cards"] = [wire(c) for c in reversed(rnd.pile)] if rnd else []  # next first
        return data

    def round_result(self, state: Match) -> dict:
        if not self.round_over(state):
            raise IllegalAction("wrong_phase", "no round has ended")
        rnd = state.round
        result = flow.settle(state)
        summary = {"winner": rnd.winner, "reason": _end_reason(rnd),
                   "bomb_factor": result["bomb_factor"], "bombs": list(rnd.bombs)}
        return {**result, **summary, "summary": summary,
                "hands": [[wire(c) for c in hand] for hand in rnd.hands]}

    def scores(self, state: Match) -> list[int]:
        return list(state.scores)

    def standings(self, state: Match) -> list[dict]:
        order = sorted(range(state.players), key=lambda s: (-state.scores[s], s))
        return [{"seat": s, "score": state.scores[s], "rank": i + 1,
                 "eliminated": state.eliminated[s]} for i, s in enumerate(order)]

    def to_json(self, state: Match) -> dict:
        return match_to_json(state)

    def from_json(self, data: dict) -> Match:
        return match_from_json(data)


def _played(decks: int, rnd: Round) -> list[dict]:
    held = set(rnd.pile).union(*rnd.hands)
    return [wire(c) for c in make_pack(decks) if c not in held]


def _end_reason(rnd: Round) -> str:
    """`empty_hand`: the winner played out; `last_holder`: forfeits left only the winner."""
    return "empty_hand" if not rnd.hands[rnd.winner] else "last_holder"
