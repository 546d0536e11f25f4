"""High card: three cards each from one 52-card pack; in turn, everyone plays one card to the
trick; the highest rank takes it (the first played of equal ranks) and leads the next. A seat left
with one card plays it without a choice. A round's deltas: each seat's tricks times the number of
players, less all the tricks (zero-sum)."""

import random
from typing import NamedTuple

from games.engine.actions import Action, Play
from games.engine.cards import RANK_OF, make_pack, wire
from games.engine.combos import Reading
from games.engine.errors import IllegalAction
from games.engine.events import DELTAS, PLAY_EVENT, SEAT_EVENT, events_spec
from games.engine.ruleset import Ruleset, RulesetInfo, Table, ViewFacts
from games.engine.specs import Choice, Field, Int, Obj
from games.engine.vocabulary import per_seat, view_spec

HAND = 3
PACK = make_pack(1, jokers=False)
OPTIONS = Obj({
    "players": Field(Choice((2, 3, 4)), 2, {"en": "Players", "zh": "人数"}),
    "rounds": Field(Int(1, 5), 2, {"en": "Rounds", "zh": "局数"}),
})
VIEW = view_spec("highcard", OPTIONS, {
    "tricks": Field(per_seat(Int(0, HAND), "tricks each seat took this round")),
}, "High card (tests only)")
EVENTS = events_spec({"play": PLAY_EVENT, "trick_won": SEAT_EVENT,
                      "round_end": Obj({"deltas": Field(DELTAS)})})
FACTS = Obj({"tricks": Field(per_seat(Int(0, HAND), "tricks each seat took"))})


def single(card: int) -> Reading:
    return Reading("single", RANK_OF[card], 1)


class Round(NamedTuple):
    number: int
    hands: tuple[tuple[int, ...], ...]
    to_act: int | None
    trick: tuple[tuple[int, int], ...]  # (seat, card), oldest first
    tricks: tuple[int, ...]
    played: tuple[int, ...]  # every card played this round


class State(NamedTuple):
    players: int
    rounds: int
    humans: tuple[bool, ...]
    scores: tuple[int, ...]
    round: Round | None


def _deltas(tricks) -> list[int]:
    return [len(tricks) * t - sum(tricks) for t in tricks]


class HighCard(Ruleset[State]):
    info = RulesetInfo(name="highcard", title={"en": "High card", "zh": "比大"}, players=(2, 3, 4),
                       options=OPTIONS, view=VIEW, events=EVENTS, settle_facts=FACTS,
                       settle_example={"options": {"players": 2}, "tricks": [2, 1]})

    def pack(self, options):
        return PACK

    def readings(self, options, cards):
        return [single(cards[0])] if len(cards) == 1 else []

    def beats(self, options, play, previous):
        return play.type == previous.type == "single" and play.rank > previous.rank

    def settle_facts(self, options, facts):
        tricks = facts["tricks"]
        if len(tricks) != options["players"] or sum(tricks) != HAND:
            raise IllegalAction("invalid_settlement", f"{HAND} tricks, one count per seat",
                                field="tricks")
        return {"deltas": _deltas(tricks)}

    def new_match(self, options, humans):
        options = self.parse_options(options)
        if len(humans) != options["players"]:
            raise IllegalAction("invalid_option", "one seat per player", option="players")
        return State(options["players"], options["rounds"], tuple(humans),
                     (0,) * options["players"], None)

    def start_round(self, state, seed):
        if not self.table(state).needs_round:
            raise IllegalAction("wrong_phase", "a round is in play or the match is over")
        deck = list(PACK)
        random.Random(seed).shuffle(deck)
        hands = tuple(tuple(sorted(deck[i * HAND:(i + 1) * HAND])) for i in range(state.players))
        number = 1 if state.round is None else state.round.number + 1
        return state._replace(round=Round(number, hands, 0, (), (0,) * state.players, ()))

    def _phase(self, state) -> str:
        rnd = state.round
        if rnd is None:
            return "waiting"
        if rnd.to_act is not None:
            return "play"
        return "match_over" if rnd.number >= state.rounds else "round_over"

    def table(self, state):
        rnd = state.round
        return Table(state.players, self._phase(state), 0 if rnd is None else rnd.number,
                     None if rnd is None else rnd.to_act, tuple(range(state.players)),
                     (False,) * state.players, state.scores)

    def to_act(self, state):
        return None if state.round is None else state.round.to_act

    def round_over(self, state):
        return state.round is not None and state.round.to_act is None

    def legal_actions(self, state, seat):
        rnd = state.round
        if rnd is None or rnd.to_act != seat:
            return []
        return [Play((card,), single(card)) for card in rnd.hands[seat]]

    def forced_action(self, state):
        seat = self.to_act(state)
        if seat is None or len(state.round.hands[seat]) != 1:
            return None
        return self.legal_actions(state, seat)[0]

    def apply(self, state, seat, action: Action):
        rnd = state.round
        if rnd is None or rnd.to_act is None:
            raise IllegalAction("round_over", "no round is in play")
        if seat != rnd.to_act:
            raise IllegalAction("not_your_turn", f"seat {rnd.to_act} is to act")
        if type(action) is not Play or len(action.cards) != 1:
            raise IllegalAction("not_a_combination", "play one card")
        card = action.cards[0]
        if card not in rnd.hands[seat]:
            raise IllegalAction("card_not_in_hand", "that card is not in your hand")
        hands = list(rnd.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        trick = rnd.trick + ((seat, card),)
        events = [{"type": "play", "seat": seat, "cards": [wire(card)],
                   "reading": single(card).to_dict()}]
        tricks, to_act = rnd.tricks, (seat + 1) % state.players
        if len(trick) == state.players:
            winner = max(trick, key=lambda p: (RANK_OF[p[1]], -trick.index(p)))[0]
            tricks = tuple(t + (s == winner) for s, t in enumerate(tricks))
            events.append({"type": "trick_won", "seat": winner})
            trick, to_act = (), winner
        rnd = Round(rnd.number, tuple(hands), None if not any(hands) else to_act, trick, tricks,
                    rnd.played + (card,))
        state = state._replace(round=rnd)
        if rnd.to_act is None:
            deltas = _deltas(tricks)
            state = state._replace(scores=tuple(s + d for s, d in zip(state.scores, deltas,
                                                                          strict=True)))
            events.append({"type": "round_end", "deltas": deltas})
        return state, events

    def view_facts(self, state):
        rnd = state.round
        options = {"players": state.players, "rounds": state.rounds}
        if rnd is None:
            return ViewFacts(options, state.humans, ((),) * state.players, (), ())
        return ViewFacts(options, state.humans, rnd.hands,
                         [(s, (c,), single(c)) for s, c in rnd.trick], rnd.played)

    def view_fields(self, state):
        rnd = state.round
        return {"tricks": list(rnd.tricks) if rnd else [0] * state.players}

    def full_view(self, state):
        data = self.view(state, None)
        data["hands"] = [[wire(c) for c in h] for h in state.round.hands] if state.round else []
        return data

    def round_result(self, state):
        tricks = state.round.tricks
        best = max(tricks)
        return {"deltas": _deltas(tricks),
                "winners": [s for s, t in enumerate(tricks) if t == best],
                "breakdown": [{"seat": s, "tricks": t} for s, t in enumerate(tricks)],
                "summary": {"tricks": list(tricks)}, "hands": [[] for _ in tricks]}

    def standings(self, state):
        order = sorted(range(state.players), key=lambda s: (-state.scores[s], s))
        return [{"seat": s, "score": state.scores[s], "rank": i + 1} for i, s in enumerate(order)]

    def to_json(self, state):
        return {"players": state.players, "rounds": state.rounds, "humans": list(state.humans),
                "scores": list(state.scores),
                "round": None if state.round is None else state.round._asdict()}

    def from_json(self, data):
        raw = data["round"]
        rnd = None if raw is None else Round(
            raw["number"], tuple(tuple(h) for h in raw["hands"]), raw["to_act"],
            tuple(tuple(p) for p in raw["trick"]), tuple(raw["tricks"]), tuple(raw["played"]))
        return State(data["players"], data["rounds"], tuple(data["humans"]),
                     tuple(data["scores"]), rnd)
