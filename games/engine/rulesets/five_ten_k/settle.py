"""510k settlement, pure: a round's facts in, an itemised breakdown out (进出分, dry level, stake,
喜分 per bomb), deltas summing to zero. The engine settles its rounds with it; the rules endpoint
settles facts a client sends."""

from collections.abc import Sequence
from itertools import product

from games.engine.cards import RANK_INDEX, RANKS, TWO
from games.engine.errors import IllegalAction
from games.engine.specs import Choice, Field, Int, List, Nullable, Obj
from games.engine.vocabulary import per_seat

PLAYERS = (4, 2)
MAX_XI_BOMBS = 32
POINTS_IN_PACK = 200

FACTS = Obj({
    "banker": Field(Nullable(Int(0, 3, "the banker's seat (包庄); ignored with two players")),
                    None),
    "teams": Field(List(List(Int(0, 3), 4), 4, description="the two sides when nobody went "
                        "solo (ignored with a banker or two players)"), []),
    "finish_order": Field(List(Int(0, 3), 4, description="seats in the order they finished; "
                               "those still holding cards at the end are left out")),
    "captured": Field(per_seat(Int(0, POINTS_IN_PACK), "points each seat collected")),
    "xi_bombs": Field(List(List(Obj({"rank": Field(Choice(RANKS)), "count": Field(Int(1, 8))}),
                                MAX_XI_BOMBS), 4,
                           description="per seat, every bomb that counts for 喜分 (played or "
                           "held at the end); empty: none for anybody"), []),
})
EXAMPLE = {"options": {"players": 4},
           "banker": None, "teams": [[0, 2], [1, 3]], "finish_order": [0, 1, 2],
           "captured": [60, 40, 50, 50], "xi_bombs": [[], [{"rank": "8", "count": 5}], [], []]}


class SettlementError(IllegalAction):
    def __init__(self, message: str, **details):
        super().__init__("invalid_settlement", message, **details)


def _check_seats(name: str, values: Sequence, players: int) -> None:
    if len(values) != players:
        raise SettlementError(f"{name} needs one entry per seat ({players})", field=name)


def _check_seat(name: str, seat, players: int) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise SettlementError(f"{name} must be a seat number 0..{players - 1}", field=name)


DRY_OPTIONS = ("none", "half", "full")
XI_MODES = ("multiplicative", "additive")
LEVELS = ("normal", "half_dry", "full_dry")
XI_PAYS = {"multiplicative": (0, 1, 2, 4, 8, 16), "additive": (0, 1, 2, 3, 4, 5)}
MAX_BOMB = 8


def xi_tier(rank: int, count: int) -> int:
    """0 for a bomb below the 喜 tiers, else 1..5: twos reach each tier one card sooner."""
    if rank == TWO:
        return max(0, count - 3)
    return max(0, count - 4)


def _sides(players: int, banker: int | None, teams: Sequence[Sequence[int]]) -> list[list[int]]:
    if players == 2:
        return [[0], [1]]
    if banker is not None:
        _check_seat("banker", banker, players)
        return [[banker], [s for s in range(players) if s != banker]]
    flat = [seat for team in teams for seat in team]
    if len(teams) != 2 or any(len(team) != 2 for team in teams) or sorted(flat) != [0, 1, 2, 3]:
        raise SettlementError("teams must be two pairs holding every seat once", field="teams")
    return [list(team) for team in teams]


def _last_side(sides: list[list[int]], finish_order: Sequence[int]) -> int:
    """The side of 下游: the side still holding cards when the round ended."""
    unfinished = [i for i, side in enumerate(sides) if any(s not in finish_order for s in side)]
    if len(unfinished) == 1:
        return unfinished[0]
    if not unfinished:
        return next(i for i, side in enumerate(sides) if finish_order[-1] in side)
    raise SettlementError(
        "the round is not over: both sides still hold cards", field="finish_order"
    )


def _level(loser_captured: int, loser_has_first: bool, players: int, dry: str) -> str:
    threshold = 40 if players == 4 else 20
    if loser_has_first or dry == "none" or loser_captured > threshold:
        return "normal"
    if loser_captured == 0 and dry == "full":
        return "full_dry"
    return "half_dry"


def _check_510k_input(players, finish_order, captured, xi_bombs):
    _check_seats("captured", captured, players)
    _check_seats("xi_bombs", xi_bombs, players)
    for seat in finish_order:
        _check_seat("finish_order", seat, players)
    if not finish_order or len(set(finish_order)) != len(finish_order):
        raise SettlementError(
            "finish_order lists distinct seats, at least one", field="finish_order"
        )
    if any(p % 5 for p in captured):
        raise SettlementError("captured points are multiples of 5, ≥ 0", field="captured")
    if sum(captured) > POINTS_IN_PACK:
        raise SettlementError(f"the pack holds {POINTS_IN_PACK} points", field="captured")
    for bombs in xi_bombs:
        for rank, count in bombs:
            if not 2 <= rank <= TWO or not 4 <= count <= MAX_BOMB:
                raise SettlementError(
                    f"a bomb is 4..{MAX_BOMB} cards of a rank 5..2", field="xi_bombs"
                )


def settle(
    *,
    players: int,
    base_score: int,
    dry: str,
    xi_mode: str,
    banker: int | None,
    teams: Sequence[Sequence[int]],
    finish_order: Sequence[int],
    captured: Sequence[int],
    xi_bombs: Sequence[Sequence[tuple[int, int]]],
) -> dict:
    """Round score = settlement (进出分: rank points, winner, dry level, stake) + 喜分."""
    _check_510k_input(players, finish_order, captured, xi_bombs)
    sides = _sides(players, banker, teams)
    rank_points = 40 if players == 4 else 20
    first = finish_order[0]
    first_side = next(i for i, side in enumerate(sides) if first in side)
    last_side = _last_side(sides, finish_order)
    side_captured = [sum(captured[s] for s in side) for side in sides]
    side_scores = list(side_captured)
    side_scores[first_side] += rank_points
    side_scores[last_side] -= rank_points

    if side_scores[0] != side_scores[1]:
        winner = 0 if side_scores[0] > side_scores[1] else 1
    else:
        winner = first_side
    loser = 1 - winner
    level = _level(side_captured[loser], first_side == loser, players, dry)
    multiplier = 2 ** LEVELS.index(level)
    has_banker = players == 4 and banker is not None
    stake = base_score * (2 if has_banker else 1) * multiplier

    settlement = [0] * players
    # 2v2 and 1v1 pair seats off; with a banker (1v3) the single seat settles with each of three.
    if len(sides[loser]) == len(sides[winner]):
        pairs = zip(sides[loser], sides[winner], strict=True)
    else:
        pairs = product(sides[loser], sides[winner])
    for payer, payee in pairs:
        settlement[payer] -= stake
        settlement[payee] += stake

    pays = XI_PAYS[xi_mode]
    xi = [0] * players
    xi_items = []
    for seat, bombs in enumerate(xi_bombs):
        for rank, count in bombs:
            tier = xi_tier(rank, count)
            if not tier:
                continue
            for other in range(players):
                if other != seat:
                    xi[other] -= pays[tier]
                    xi[seat] += pays[tier]
            xi_items.append(
                {"seat": seat, "rank": RANKS[rank], "count": count, "tier": tier,
                 "each_other_pays": pays[tier]}
            )

    return {
        "deltas": [s + x for s, x in zip(settlement, xi, strict=True)],
        "settlement": settlement,
        "xi": xi,
        "level": level,
        "multiplier": multiplier,
        "stake": stake,
        "winner_seats": sorted(sides[winner]),
        "sides": [sorted(side) for side in sides],
        "side_captured": side_captured,
        "side_scores": side_scores,
        "first": first,
        "xi_bombs": xi_items,
    }


def settle_facts(options: dict, facts: dict) -> dict:
    """The rules endpoint's settlement: the facts of one round of a table of `options`."""
    players = options["players"]
    xi_bombs = facts["xi_bombs"] or [[] for _ in range(players)]
    return settle(
        players=players, base_score=options["base_score"], dry=options["dry"],
        xi_mode=options["xi_mode"], banker=None if players == 2 else facts["banker"],
        teams=facts["teams"], finish_order=facts["finish_order"], captured=facts["captured"],
        xi_bombs=[[(RANK_INDEX[b["rank"]], b["count"]) for b in bombs] for bombs in xi_bombs],
    )
