"""What a seat may see of a 510k match, every hand for review, and a round's result."""

from games.engine.cards import RANK_OF, RANKS, wire
from games.engine.errors import IllegalAction
from games.engine.rulesets.five_ten_k.combos import PACK
from games.engine.rulesets.five_ten_k.listing import playable_ranks
from games.engine.rulesets.five_ten_k.round import deal_size, held_xi, legal_actions, settle
from games.engine.rulesets.five_ten_k.state import Match, Round


def _cards(cards) -> list[dict]:
    return [wire(c) for c in cards]


def _table(rnd: Round) -> list[dict]:
    last = len(rnd.trick) - 1
    return [
        {"seat": p.seat, "cards": _cards(p.cards), "reading": p.reading.to_dict(),
         "latest": i == last}
        for i, p in enumerate(rnd.trick)
    ]


def public_view(match: Match) -> dict:
    """Everything every seat may know."""
    options = match.options
    rnd = match.round
    data = {
        "ruleset": "510k",
        "options": options._asdict(),
        "players": options.players,
        "humans": list(match.humans),
        "round": 0 if rnd is None else rnd.number,
        "rounds": options.rounds,
        "phase": "waiting" if rnd is None else rnd.phase,
        "match_over": rnd is not None and rnd.phase == "over" and rnd.number >= options.rounds,
        "scores": list(match.scores),
    }
    if rnd is None:
        return data
    side_captured = [sum(rnd.captured[s] for s in team) for team in rnd.teams]
    # Cards that have left the hands this round: public (every play was seen), and what a bot
    # needs to know which cards are still out.
    held = set(rnd.deck).union(rnd.bottom, *rnd.hands)
    data.update(
        to_act=rnd.to_act,
        cutter=rnd.cutter,
        cut_position=rnd.cut_position,
        # A cut names a position 0..cut_positions-1 (the 明牌 is the card dealt there).
        cut_positions=deal_size(options),
        face_up=None if rnd.face_up is None else {"card": wire(rnd.face_up), "holder": rnd.holder},
        counts=[len(h) for h in rnd.hands],
        bids=[{"seat": seat, "solo": solo} for seat, solo in rnd.bids],
        banker=rnd.banker,
        teams=[list(team) for team in rnd.teams],
        seating=list(rnd.seating),
        trick=_table(rnd),
        captured=list(rnd.captured),
        side_captured=side_captured,
        finished=list(rnd.finished),
        played=[wire(c) for c in PACK if c not in held],
    )
    return data


def seat_view(match: Match, seat: int) -> dict:
    """The public view plus the seat's hand, flagged playable on its turn."""
    data = public_view(match)
    rnd = match.round
    data["seat"] = seat
    hand = () if rnd is None else rnd.hands[seat]
    playable = set()
    if rnd is not None and rnd.phase == "play":
        playable = playable_ranks(hand, legal_actions(match, seat))
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
