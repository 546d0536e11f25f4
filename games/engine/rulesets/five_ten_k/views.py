"""What a seat may see of a 510k match, every hand for review, and a round's result."""

from games.engine.actions import Action
from games.engine.cards import RANK_OF, RANKS, wire
from games.engine.errors import IllegalAction
from games.engine.rulesets.five_ten_k.combos import PACK
from games.engine.rulesets.five_ten_k.listing import playable_ranks
from games.engine.rulesets.five_ten_k.round import deal_size, held_xi, settle
from games.engine.rulesets.five_ten_k.state import OPTIONS, Match, Round
from games.engine.specs import Bool, Field, Int, List, Nullable, Obj
from games.engine.vocabulary import CARD, SEAT, per_seat, view_spec

TEAM = List(SEAT, 4)
VIEW = view_spec("510k", OPTIONS, {
    "rounds": Field(Int(1, 100, "rounds in the match")),
    "cutter": Field(Nullable(SEAT, "who cuts this round")),
    "cut_position": Field(Nullable(Int(0, 87), "where the pack was cut")),
    "cut_positions": Field(Int(1, 88, "a cut names a position 0..cut_positions-1")),
    "face_up": Field(Nullable(Obj({"card": Field(CARD), "holder": Field(SEAT)}),
                              "the 明牌 and the seat that received it")),
    "bids": Field(List(Obj({"seat": Field(SEAT), "solo": Field(Bool())}), 4,
                       description="包庄 bids so far")),
    "banker": Field(Nullable(SEAT, "the seat that went solo (包庄)")),
    "teams": Field(List(TEAM, 2, description="the two sides once known")),
    "captured": Field(per_seat(Int(0, 200), "points (5, 10, K) each seat won in tricks")),
    "side_captured": Field(List(Int(0, 200), 2, description="points per side, as `teams`")),
    "finished": Field(List(SEAT, 4, description="seats in the order they went out")),
}, "510k: a seat's view (or an onlooker's: no hand)")


def _cards(cards) -> list[dict]:
    return [wire(c) for c in cards]


def _trick(rnd: Round) -> list[dict]:
    last = len(rnd.trick) - 1
    return [
        {"seat": p.seat, "cards": _cards(p.cards), "reading": p.reading.to_dict(),
         "latest": i == last}
        for i, p in enumerate(rnd.trick)
    ]


def phase(match: Match) -> str:
    """The round's phase in the shared vocabulary (its own `over` is round_over or match_over)."""
    rnd = match.round
    if rnd is None:
        return "waiting"
    if rnd.phase != "over":
        return rnd.phase
    return "match_over" if rnd.number >= match.options.rounds else "round_over"


def public_view(match: Match) -> dict:
    """Everything every seat may know."""
    options = match.options
    rnd = match.round
    players = options.players
    data = {
        "ruleset": "510k",
        "options": options._asdict(),
        "phase": phase(match),
        "round": 0 if rnd is None else rnd.number,
        "to_act": None if rnd is None else rnd.to_act,
        "seat": None,
        "players": players,
        "humans": list(match.humans),
        "scores": list(match.scores),
        "counts": [len(h) for h in rnd.hands] if rnd else [0] * players,
        "seating": list(rnd.seating) if rnd else list(range(players)),
        "trick": [] if rnd is None else _trick(rnd),
        "played": [],
        "rounds": options.rounds,
        "cutter": None if rnd is None else rnd.cutter,
        "cut_position": None,
        # A cut names a position 0..cut_positions-1 (the 明牌 is the card dealt there).
        "cut_positions": deal_size(options),
        "face_up": None,
        "bids": [],
        "banker": None,
        "teams": [],
        "captured": [0] * players,
        "side_captured": [],
        "finished": [],
    }
    if rnd is None:
        return data
    # Cards that have left the hands this round: public (every play was seen), and what a bot
    # needs to know which cards are still out.
    held = set(rnd.deck).union(rnd.bottom, *rnd.hands)
    data.update(
        played=[wire(c) for c in PACK if c not in held],
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


def seat_view(match: Match, seat: int, legal: list[Action]) -> dict:
    """The public view plus the seat's hand, flagged playable on its turn."""
    data = public_view(match)
    rnd = match.round
    data["seat"] = seat
    hand = () if rnd is None else rnd.hands[seat]
    playable = set()
    if rnd is not None and rnd.phase == "play":
        playable = playable_ranks(hand, legal)
    data["hand"] = [dict(wire(c), playable=RANK_OF[c] in playable) for c in hand]
    return data


def full_view(match: Match) -> dict:
    data = public_view(match)
    rnd = match.round
    if rnd is not None:
        data["hands"] = [_cards(h) for h in rnd.hands]
        data["bottom"] = _cards(rnd.bottom)
    return data


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
