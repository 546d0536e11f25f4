"""What a seat may see of a gandengyan match, every hand for review, and a round's result."""

from games.engine.actions import READING
from games.engine.cards import make_pack, wire
from games.engine.events import DELTAS, PLAY_EVENT, SEAT_EVENT, STANDINGS, events_spec
from games.engine.rulesets.gandengyan import flow
from games.engine.rulesets.gandengyan.state import (
    LOG_TAIL,
    LOGGED,
    OPTIONS,
    Logged,
    Match,
    Round,
)
from games.engine.specs import Bool, Choice, Field, Int, List, Nullable, Obj
from games.engine.vocabulary import CARDS, POINTS, SEAT, per_seat, view_spec

# A round's events: at most one play per card, a few passes, a draw and a trick per play.
MAX_LOGGED = 4096
LOGGED_SPEC = Obj({
    "type": Field(Choice(LOGGED, "play, pass, trick_won (every other seat passed), draw (the "
                                 "card stays hidden) or forfeit (only jokers left)")),
    "seat": Field(SEAT),
    "cards": Field(CARDS),
    "reading": Field(Nullable(READING, "a play's reading")),
}, "one public event of the round")

PILE = Int(0, 108, "cards left to draw")
VIEW = view_spec("gandengyan", OPTIONS, {
    "eliminated": Field(per_seat(Bool(), "out of the match (score at 0 or below)")),
    "forfeited": Field(per_seat(Bool(), "out of this round: only jokers left")),
    "played_any": Field(per_seat(Bool(), "played a card this round (else it pays double)")),
    "leader": Field(Nullable(SEAT, "who led the round")),
    "dice": Field(List(Int(1, 6), 64, description="round 1's dice rolls, re-rolls included")),
    "free_lead": Field(Bool("the seat to act leads freely (no trick to beat)")),
    "pile": Field(PILE),
    "bombs": Field(List(Int(3, 8), 64, description="the size of every bomb played this round "
                        "(each doubles the losers' payments at least)")),
    "winner": Field(Nullable(SEAT, "the round's winner, once over")),
    "log": Field(List(LOGGED_SPEC, MAX_LOGGED, description=f"this round's latest {LOG_TAIL} "
                      "public events, oldest first: every play, pass, trick taken, draw and "
                      "forfeit (the earlier ones: the match's events)")),
}, "Gandengyan: a seat's view (or an onlooker's: no hand)")
EVENTS = events_spec({
    "play": PLAY_EVENT,
    "pass": SEAT_EVENT,
    "trick_won": Obj(SEAT_EVENT.fields, "every other seat passed: the seat leads next"),
    "draw": Obj({"seat": Field(SEAT), "pile": Field(PILE)}, "a seat drew a card (it stays "
                                                            "hidden)"),
    "forfeit": Obj(SEAT_EVENT.fields, "a seat holding only jokers is out of the round"),
    "round_end": Obj({"winner": Field(SEAT), "deltas": Field(DELTAS),
                      "reason": Field(Choice(("empty_hand", "last_holder")))}),
    "eliminated": Obj({"seat": Field(SEAT), "score": Field(POINTS)}, "a seat at 0 or below"),
    "match_end": Obj({"standings": Field(STANDINGS)}),
})


def own_fields(state: Match) -> dict:
    """A view's gandengyan keys (the shared words come from the Ruleset)."""
    rnd = state.round
    players = state.players
    return {
        "eliminated": list(state.eliminated),
        "forfeited": list(rnd.forfeited) if rnd else [False] * players,
        "played_any": list(rnd.played_any) if rnd else [False] * players,
        "leader": None if rnd is None else rnd.leader,
        "dice": [] if rnd is None else list(rnd.dice),
        "free_lead": bool(rnd and rnd.winner is None and not rnd.trick),
        "pile": 0 if rnd is None else len(rnd.pile),
        "bombs": [] if rnd is None else list(rnd.bombs),
        "winner": None if rnd is None else rnd.winner,
        "log": [] if rnd is None else [_logged(e) for e in rnd.log],
    }


def played(state: Match) -> list[int]:
    """Cards that have left the hands this round, in pack order: public (every play was seen),
    and what a bot needs to know which cards are still out."""
    rnd = state.round
    if rnd is None:
        return []
    held = set(rnd.pile).union(*rnd.hands)
    return [c for c in make_pack(state.decks) if c not in held]


def hidden(state: Match) -> dict:
    """What the full view adds to an onlooker's: every hand, and the pile, next card first."""
    rnd = state.round
    return {"hands": [[wire(c) for c in hand] for hand in rnd.hands] if rnd else [],
            "pile_cards": [wire(c) for c in reversed(rnd.pile)] if rnd else []}


def round_result(state: Match) -> dict:
    rnd = state.round
    result = flow.settle(state)
    summary = {"winner": rnd.winner, "reason": end_reason(rnd),
               "bomb_factor": result["bomb_factor"], "bombs": list(rnd.bombs)}
    return {**result, **summary, "summary": summary, "winners": [rnd.winner],
            "hands": [[wire(c) for c in hand] for hand in rnd.hands]}


def end_reason(rnd: Round) -> str:
    """`empty_hand`: the winner played out; `last_holder`: forfeits left only the winner."""
    return "empty_hand" if not rnd.hands[rnd.winner] else "last_holder"


def _logged(event: Logged) -> dict:
    return {"type": event.kind, "seat": event.seat, "cards": [wire(c) for c in event.cards],
            "reading": None if event.reading is None else event.reading.to_dict()}

