"""What a seat may see of a 510k match, every hand for review, and a round's result."""

from games.engine.cards import RANKS, wire
from games.engine.errors import IllegalAction
from games.engine.events import DELTAS, PLAY_EVENT, SEAT_EVENT, STANDINGS, events_spec
from games.engine.rulesets.five_ten_k.combos import PACK
from games.engine.rulesets.five_ten_k.round import HAND_SIZE, deal_size, held_xi, settle
from games.engine.rulesets.five_ten_k.settle import LEVELS, PLAYERS, POINTS_IN_PACK
from games.engine.rulesets.five_ten_k.state import OPTIONS, Match
from games.engine.specs import Bool, Choice, Field, Int, List, Nullable, Obj
from games.engine.vocabulary import CARD, POINTS, SEAT, per_seat, view_spec

TEAM = List(SEAT, 4)
MAX_DEAL = HAND_SIZE * max(PLAYERS)
CUT_POSITION = Int(0, MAX_DEAL - 1, "where the pack was cut")
CAPTURED = Int(0, POINTS_IN_PACK)
ROUNDS = OPTIONS.fields["rounds"].spec
VIEW = view_spec("510k", OPTIONS, {
    "rounds": Field(ROUNDS),
    "cutter": Field(Nullable(SEAT, "who cuts this round")),
    "cut_position": Field(Nullable(CUT_POSITION)),
    "cut_positions": Field(Int(1, MAX_DEAL, "a cut names a position 0..cut_positions-1")),
    "face_up": Field(Nullable(Obj({"card": Field(CARD), "holder": Field(SEAT)}),
                              "the 明牌 and the seat that received it")),
    "bids": Field(List(Obj({"seat": Field(SEAT), "solo": Field(Bool())}), 4,
                       description="包庄 bids so far")),
    "banker": Field(Nullable(SEAT, "the seat that went solo (包庄)")),
    "teams": Field(List(TEAM, 2, description="the two sides once known")),
    "captured": Field(per_seat(CAPTURED, "points (5, 10, K) each seat won in tricks")),
    "side_captured": Field(List(CAPTURED, 2, description="points per side, as `teams`")),
    "finished": Field(List(SEAT, 4, description="seats in the order they went out")),
}, "510k: a seat's view (or an onlooker's: no hand)")
EVENTS = events_spec({
    "cut": Obj({"seat": Field(SEAT), "position": Field(CUT_POSITION), "face_up": Field(CARD),
                "holder": Field(SEAT)}, "the pack was cut: the 明牌 turned up, dealt to `holder`"),
    "bid": Obj({"seat": Field(SEAT), "solo": Field(Bool())}, "a seat went solo (包庄) or not"),
    "teams": Obj({"banker": Field(Nullable(SEAT)), "teams": Field(List(TEAM, 2)),
                  "seating": Field(per_seat(SEAT)),
                  "swapped": Field(Nullable(List(SEAT, 2, 2), "the two seats that moved")),
                  "leader": Field(SEAT)}, "the sides are known; play begins"),
    "play": PLAY_EVENT,
    "finished": Obj({"seat": Field(SEAT), "place": Field(Int(1, max(PLAYERS)))},
                    "a seat played out its hand"),
    "pass": SEAT_EVENT,
    "trick_won": Obj({"seat": Field(SEAT), "points": Field(CAPTURED)}),
    "round_end": Obj({"round": Field(ROUNDS), "deltas": Field(DELTAS),
                      "scores": Field(per_seat(POINTS)), "winner_seats": Field(TEAM),
                      "level": Field(Choice(LEVELS))}),
    "match_end": Obj({"scores": Field(per_seat(POINTS)), "standings": Field(STANDINGS)}),
})


def _cards(cards) -> list[dict]:
    return [wire(c) for c in cards]


def phase(match: Match) -> str:
    """The round's phase in the shared vocabulary (its own `over` is round_over or match_over)."""
    rnd = match.round
    if rnd is None:
        return "waiting"
    if rnd.phase != "over":
        return rnd.phase
    return "match_over" if rnd.number >= match.options.rounds else "round_over"


def played(match: Match) -> list[int]:
    """Cards that have left the hands this round, in pack order: public (every play was seen),
    and what a bot needs to know which cards are still out."""
    rnd = match.round
    if rnd is None:
        return []
    held = set(rnd.deck).union(rnd.bottom, *rnd.hands)
    return [c for c in PACK if c not in held]


def own_fields(match: Match) -> dict:
    """A view's 510k keys (the shared words come from the Ruleset)."""
    options = match.options
    rnd = match.round
    data = {
        "rounds": options.rounds,
        "cutter": None if rnd is None else rnd.cutter,
        "cut_position": None,
        # A cut names a position 0..cut_positions-1 (the 明牌 is the card dealt there).
        "cut_positions": deal_size(options),
        "face_up": None,
        "bids": [],
        "banker": None,
        "teams": [],
        "captured": [0] * options.players,
        "side_captured": [],
        "finished": [],
    }
    if rnd is None:
        return data
    data.update(
        cut_position=rnd.cut_position,
        face_up=None if rnd.face_up is None else {"card": wire(rnd.face_up), "holder": rnd.holder},
        bids=[{"seat": seat, "solo": solo} for seat, solo in rnd.bids],
        banker=rnd.banker,
        teams=[list(team) for team in rnd.teams],
        captured=list(rnd.captured),
        side_captured=[sum(rnd.captured[s] for s in team) for team in rnd.teams],
        finished=list(rnd.finished),
    )
    return data


def hidden(match: Match) -> dict:
    """What the full view adds to an onlooker's once dealt: every hand, and the bottom."""
    rnd = match.round
    if rnd is None:
        return {}
    return {"hands": [_cards(h) for h in rnd.hands], "bottom": _cards(rnd.bottom)}


def round_result(match: Match) -> dict:
    rnd = match.round
    if rnd is None or rnd.phase != "over":
        raise IllegalAction("wrong_phase", "the round is not over")
    result = settle(match.options, rnd)
    bombs = [
        [{"rank": RANKS[r], "count": n, "played": True} for r, n in rnd.xi_played[seat]]
        + [{"rank": RANKS[r], "count": n, "played": False} for r, n in held_xi(hand)]
        for seat, hand in enumerate(rnd.hands)
    ]
    places = {seat: i + 1 for i, seat in enumerate(rnd.finished)}
    breakdown = [
        {"seat": seat, "captured": rnd.captured[seat], "place": places.get(seat),
         "settlement": result["settlement"][seat], "xi": result["xi"][seat],
         "delta": result["deltas"][seat], "xi_bombs": bombs[seat]}
        for seat in range(match.options.players)
    ]
    data = {
        "round": rnd.number,
        "deltas": result["deltas"],
        "winners": result["winner_seats"],
        "breakdown": breakdown,
        "summary": {
            "banker": rnd.banker,
            "teams": [list(t) for t in rnd.teams],
            "seating": list(rnd.seating),
            "finish_order": list(rnd.finished),
            "level": result["level"],
            "winner_seats": result["winner_seats"],
            "side_captured": result["side_captured"],
            "side_scores": result["side_scores"],
        },
        "settlement": result,
        "xi_bombs": bombs,
        "hands": [_cards(h) for h in rnd.hands],
        "scores": list(match.scores),
    }
    if match.options.players == 2:
        data["bottom"] = _cards(rnd.bottom)
    return data
