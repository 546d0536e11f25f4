"""What a seat may see of a gandengyan match, every hand for review, and a round's result."""

from games.engine.actions import READING, Action, Play
from games.engine.cards import RANK_OF, code, make_pack, wire
from games.engine.rulesets.gandengyan import flow
from games.engine.rulesets.gandengyan.state import LOGGED, OPTIONS, Logged, Match, Round
from games.engine.specs import Bool, Choice, Field, Int, List, Nullable, Obj
from games.engine.vocabulary import CARDS, SEAT, per_seat, view_spec

# A round's events: at most one play per card, a few passes, a draw and a trick per play.
MAX_LOGGED = 4096
LOGGED_SPEC = Obj({
    "type": Field(Choice(LOGGED, "play, pass, trick_won (every other seat passed), draw (the "
                                 "card stays hidden) or forfeit (only jokers left)")),
    "seat": Field(SEAT),
    "cards": Field(CARDS),
    "reading": Field(Nullable(READING, "a play's reading")),
}, "one public event of the round")

VIEW = view_spec("gandengyan", OPTIONS, {
    "eliminated": Field(per_seat(Bool(), "out of the match (score at 0 or below)")),
    "forfeited": Field(per_seat(Bool(), "out of this round: only jokers left")),
    "played_any": Field(per_seat(Bool(), "played a card this round (else it pays double)")),
    "leader": Field(Nullable(SEAT, "who led the round")),
    "dice": Field(List(Int(1, 6), 64, description="round 1's dice rolls, re-rolls included")),
    "free_lead": Field(Bool("the seat to act leads freely (no trick to beat)")),
    "pile": Field(Int(0, 108, "cards left to draw")),
    "bombs": Field(List(Int(3, 8), 64, description="the size of every bomb played this round "
                        "(each doubles the losers' payments at least)")),
    "winner": Field(Nullable(SEAT, "the round's winner, once over")),
    "log": Field(List(LOGGED_SPEC, MAX_LOGGED, description="this round's public events, oldest "
                      "first: every play, pass, trick taken, draw and forfeit")),
}, "Gandengyan: a seat's view (or an onlooker's: no hand)")


def public_view(state: Match) -> dict:
    rnd = state.round
    players = state.players
    return {
        "ruleset": "gandengyan",
        "options": state.options,
        "phase": flow.phase(state),
        "round": 0 if rnd is None else rnd.number,
        "to_act": None if rnd is None else rnd.to_act,
        "seat": None,
        "players": players,
        "humans": list(state.humans),
        "scores": list(state.scores),
        "counts": [len(h) for h in rnd.hands] if rnd else [0] * players,
        "seating": list(range(players)),
        "trick": [] if rnd is None else [
            {"seat": t.seat, "cards": [wire(c) for c in t.cards],
             "reading": t.reading.to_dict(), "latest": i == len(rnd.trick) - 1}
            for i, t in enumerate(rnd.trick)
        ],
        # Cards that have left the hands this round: public (every play was seen), and what a
        # bot needs to know which cards are still out.
        "played": [] if rnd is None else _played(state.decks, rnd),
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


def seat_view(state: Match, seat: int, legal: list[Action]) -> dict:
    """The public view plus the seat's hand, each card flagged if some legal play uses its rank."""
    data = public_view(state)
    data["seat"] = seat
    rnd = state.round
    usable = {RANK_OF[c] for play in legal if type(play) is Play for c in play.cards}
    data["hand"] = [{"id": c, "code": code(c), "playable": RANK_OF[c] in usable}
                    for c in (rnd.hands[seat] if rnd else ())]
    return data


def full_view(state: Match) -> dict:
    data = public_view(state)
    rnd = state.round
    data["hands"] = [[wire(c) for c in hand] for hand in rnd.hands] if rnd else []
    data["pile_cards"] = [wire(c) for c in reversed(rnd.pile)] if rnd else []  # next first
    return data


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


def _played(decks: int, rnd: Round) -> list[dict]:
    held = set(rnd.pile).union(*rnd.hands)
    return [wire(c) for c in make_pack(decks) if c not in held]
