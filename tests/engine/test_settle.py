"""Settlement formulas, table-driven from the rules pages, plus zero-sum properties."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import RANK_INDEX
from games.engine.errors import IllegalAction
from games.engine.registry import get_ruleset
from games.engine.rulesets.five_ten_k.settle import settle as five_ten_k_settle
from games.engine.rulesets.five_ten_k.settle import xi_tier
from games.engine.rulesets.gandengyan.settle import settle as gandengyan_settle

GDY = get_ruleset("gandengyan")
FTK = get_ruleset("510k")


def gdy(remaining, played_any=None, forfeited=None, bombs=(), winner=0, decks=1, absent=None):
    players = len(remaining)
    return gandengyan_settle(
        winner=winner,
        remaining=remaining,
        played_any=played_any or [True] * players,
        forfeited=forfeited or [False] * players,
        bombs=list(bombs),
        decks=decks,
        absent=absent,
    )


@pytest.mark.parametrize(
    ("remaining", "played_any", "bombs", "deltas"),
    [
        ([0, 1, 1, 1], None, [], [3, -1, -1, -1]),  # one card left costs one point
        ([0, 2, 5, 1], [True, True, True, False], [], [14, -2, -10, -2]),  # ×2 for 5+ or none
        ([0, 6, 0, 0], [True, False, True, True], [], [12, -12, 0, 0]),  # both: ×2 only once
        ([0, 2, 5, 1], [True, True, True, False], [3, 4], [112, -16, -80, -16]),  # ×2 ×4
        ([0, 1, 1, 1], None, [4, 4], [48, -16, -16, -16]),  # two 4-card bombs ×16
        ([0, 1, 0, 0], None, [8], [64, -64, 0, 0]),  # an 8-card bomb ×64
    ],
)
def test_gandengyan_settlement_table(remaining, played_any, bombs, deltas):
    decks = 2 if any(b > 4 for b in bombs) else 1
    assert gdy(remaining, played_any, bombs=bombs, decks=decks)["deltas"] == deltas


def test_forfeited_and_absent_seats_pay_nothing():
    result = gdy([0, 3, 2, 7], forfeited=[False, True, False, False], absent=[False] * 3 + [True])
    assert result["deltas"] == [2, 0, -2, 0]
    assert result["breakdown"][1]["cards_left"] == 0


def test_winner_by_forfeit_may_hold_cards():
    result = gdy([0, 4, 2, 3], forfeited=[True, False, True, True], winner=1)
    assert result["deltas"] == [0, 0, 0, 0]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"remaining": [0, 1, 1], "played_any": [True] * 4},
        {"remaining": [0, -1, 1, 1]},
        {"remaining": [0, 1, 1, 1], "bombs": [5]},  # one deck: no 5-card bomb
        {"remaining": [0, 1, 1, 1], "bombs": [2]},
        {"remaining": [0, 1, 1, 1], "winner": 4},
        {"remaining": [0, 1, 1, 1], "forfeited": [True, False, False, False]},
        {"remaining": [0, 10**4300, 1, 1]},
        {"remaining": [0, 1, 1, 1], "played_any": [1, 1, 1, 1]},
        {"remaining": [0, 1, 1, 1], "colour": "red"},
    ],
)
def test_gandengyan_inconsistent_facts_are_refused(kwargs):
    """As the rules endpoint settles them: facts of the wrong shape or out of bounds, or that no
    round could have."""
    facts = {"winner": 0, "played_any": [True] * 4, "forfeited": [False] * 4, **kwargs}
    with pytest.raises(IllegalAction) as refused:
        GDY.settle(GDY.parse_options({"players": 4, "decks": 1}), facts)
    assert refused.value.code == "invalid_settlement"


@given(
    remaining=st.lists(st.integers(0, 30), min_size=4, max_size=6),
    data=st.data(),
)
@settings(max_examples=200, deadline=None)
def test_gandengyan_is_zero_sum(remaining, data):
    players = len(remaining)
    played_any = data.draw(st.lists(st.booleans(), min_size=players, max_size=players))
    forfeited = data.draw(st.lists(st.booleans(), min_size=players, max_size=players))
    winner = data.draw(st.integers(0, players - 1))
    forfeited[winner] = False
    bombs = data.draw(st.lists(st.integers(3, 8), max_size=4))
    result = gandengyan_settle(
        winner=winner, remaining=remaining, played_any=played_any,
        forfeited=forfeited, bombs=bombs, decks=2,
    )
    assert sum(result["deltas"]) == 0
    assert all(d <= 0 for seat, d in enumerate(result["deltas"]) if seat != winner)


def ftk(captured, finish_order, banker=None, teams=((0, 2), (1, 3)), base=1, dry="full",
        xi_mode="multiplicative", xi_bombs=None):
    players = len(captured)
    return five_ten_k_settle(
        players=players, base_score=base, dry=dry, xi_mode=xi_mode, banker=banker,
        teams=teams, finish_order=finish_order, captured=captured,
        xi_bombs=xi_bombs or [[] for _ in range(players)],
    )


@pytest.mark.parametrize(
    ("captured", "finish_order", "kwargs", "deltas", "level"),
    [
        # 2v2: side score = captured + 40 for 上游's side − 40 for 下游's side.
        ([60, 40, 50, 50], [0, 1, 2], {}, [1, -1, 1, -1], "normal"),
        ([100, 20, 60, 20], [0, 1, 2], {}, [2, -2, 2, -2], "half_dry"),
        ([130, 0, 70, 0], [0, 1, 2], {}, [4, -4, 4, -4], "full_dry"),
        ([130, 0, 70, 0], [0, 1, 2], {"dry": "half"}, [2, -2, 2, -2], "half_dry"),
        ([130, 0, 70, 0], [0, 1, 2], {"dry": "none"}, [1, -1, 1, -1], "normal"),
        ([100, 20, 60, 20], [0, 1, 2], {"base": 3}, [6, -6, 6, -6], "half_dry"),
        # The losing side holds 上游: never dry.
        ([80, 10, 110, 0], [1, 0, 2], {}, [1, -1, 1, -1], "normal"),
        # 上游 and 下游 partners: the ±40 cancel; a tie goes to 上游's side.
        ([50, 50, 50, 50], [0, 1, 3], {}, [1, -1, 1, -1], "normal"),
        # Rank points decide: 80 + 40 against 120 − 40.
        ([40, 60, 40, 60], [0, 2], {}, [1, -1, 1, -1], "normal"),
        # Banker wins: each defender pays 2, the banker takes 6 (×2, ×4 when dry).
        ([20, 30, 100, 50], [2], {"banker": 2}, [-2, -2, 6, -2], "normal"),
        ([0, 20, 180, 0], [2], {"banker": 2}, [-4, -4, 12, -4], "half_dry"),
        ([0, 0, 200, 0], [2], {"banker": 2}, [-8, -8, 24, -8], "full_dry"),
        # Banker loses (1赔3), with the level from the banker's own captured points.
        ([60, 50, 30, 60], [0, 1, 3], {"banker": 2}, [4, 4, -12, 4], "half_dry"),
        ([70, 60, 0, 70], [0, 1, 3], {"banker": 2}, [8, 8, -24, 8], "full_dry"),
        # Two players: ±20, thresholds at 20, unit = base.
        ([120, 80], [0], {"teams": ()}, [1, -1], "normal"),
        ([180, 20], [0], {"teams": ()}, [2, -2], "half_dry"),
        ([200, 0], [0], {"teams": (), "base": 2}, [8, -8], "full_dry"),
        ([190, 10], [1], {"teams": ()}, [1, -1], "normal"),  # loser is 上游
    ],
)
def test_510k_settlement_table(captured, finish_order, kwargs, deltas, level):
    result = ftk(captured, finish_order, **kwargs)
    assert result["deltas"] == deltas
    assert result["level"] == level
    assert sum(result["deltas"]) == 0


@pytest.mark.parametrize(
    ("rank", "count", "tier"),
    [("8", 4, 0), ("8", 5, 1), ("8", 6, 2), ("8", 7, 3), ("8", 8, 4),
     ("2", 4, 1), ("2", 5, 2), ("2", 6, 3), ("2", 7, 4), ("2", 8, 5)],
)
def test_xi_tiers(rank, count, tier):
    assert xi_tier(RANK_INDEX[rank], count) == tier


@pytest.mark.parametrize(
    ("mode", "bombs", "xi"),
    [
        ("multiplicative", [(RANK_INDEX["8"], 5)], [-1, 3, -1, -1]),
        ("multiplicative", [(RANK_INDEX["9"], 7)], [-4, 12, -4, -4]),
        ("multiplicative", [(RANK_INDEX["2"], 8)], [-16, 48, -16, -16]),
        ("additive", [(RANK_INDEX["9"], 7)], [-3, 9, -3, -3]),
        ("additive", [(RANK_INDEX["2"], 8)], [-5, 15, -5, -5]),
        ("additive", [(RANK_INDEX["8"], 6), (RANK_INDEX["2"], 4)], [-3, 9, -3, -3]),  # they add up
        ("multiplicative", [(RANK_INDEX["8"], 4)], [0, 0, 0, 0]),  # below the tiers
    ],
)
def test_xi_points(mode, bombs, xi):
    result = ftk([60, 40, 50, 50], [0, 1, 2], xi_mode=mode, xi_bombs=[[], bombs, [], []])
    assert result["xi"] == xi
    assert result["deltas"] == [s + x for s, x in zip(result["settlement"], xi, strict=True)]


def test_xi_does_not_scale_with_base_score():
    result = ftk([60, 40, 50, 50], [0, 1, 2], base=5, xi_bombs=[[(3, 5)], [], [], []])
    assert result["xi"] == [3, -1, -1, -1]
    assert result["settlement"] == [5, -5, 5, -5]


def test_two_player_xi_is_paid_by_the_one_other_seat():
    result = ftk([120, 80], [0], teams=(), xi_bombs=[[], [(5, 6)]])
    assert result["xi"] == [-2, 2]


@pytest.mark.parametrize(
    ("facts", "options"),
    [
        ({"captured": [60, 40, 50, 51], "finish_order": [0, 1, 2]}, {}),
        ({"captured": [60, 40, 50, -5], "finish_order": [0, 1, 2]}, {}),
        ({"captured": [100, 100, 50, 50], "finish_order": [0, 1, 2]}, {}),
        ({"captured": [60, 40, 50, 50], "finish_order": [0, 1, 2],
          "teams": [[0, 1], [1, 3]]}, {}),
        ({"captured": [60, 40, 50, 50], "finish_order": [0, 0]}, {}),
        ({"captured": [60, 40, 50, 50], "finish_order": []}, {}),
        ({"captured": [60, 40, 50, 50], "finish_order": [0]}, {}),  # both sides hold cards
        ({"captured": [60, 40, 50, 50], "finish_order": [0, 1, 2]}, {"base_score": 11}),
        ({"captured": [60, 40, 50, 50], "finish_order": [0, 1, 2]}, {"dry": "quarter"}),
        ({"captured": [60, 40, 50, 50], "finish_order": [0, 1, 2],
          "xi_bombs": [[{"rank": "5", "count": 9}], [], [], []]}, {}),
        ({"captured": [60, 40, 50, 50], "finish_order": [0, 1, 2],
          "xi_bombs": [[{"rank": "3", "count": 5}], [], [], []]}, {}),
        ({"captured": [60, 40, 50, 50], "finish_order": [0, 1, 2], "banker": 7}, {}),
        ({"captured": [60, 40, 50, 10**4300], "finish_order": [0, 1, 2]}, {}),
    ],
)
def test_510k_inconsistent_facts_are_refused(facts, options):
    """As the rules endpoint settles them: facts or options of the wrong shape or out of
    bounds, or that no round could have."""
    with pytest.raises(IllegalAction) as refused:
        FTK.settle(FTK.parse_options({"players": 4, **options}),
                   {"teams": [[0, 2], [1, 3]], **facts})
    assert refused.value.code in ("invalid_settlement", "invalid_option")


@given(data=st.data())
@settings(max_examples=200, deadline=None)
def test_510k_is_zero_sum(data):
    players = data.draw(st.sampled_from([2, 4]))
    captured = data.draw(st.lists(st.integers(0, 10), min_size=players, max_size=players))
    captured = [5 * c for c in captured]
    order = data.draw(st.permutations(range(players)))
    banker = data.draw(st.none() | st.integers(0, 3)) if players == 4 else None
    finish = list(order[: data.draw(st.integers(1, players))])
    sides = [[0, 2], [1, 3]]
    if banker is not None:
        sides = [[banker], [s for s in range(4) if s != banker]]
    if players == 4 and all(any(s not in finish for s in side) for side in sides):
        finish = [s for s in order if s in sides[0]] + [s for s in order if s in sides[1]][:1]
    bombs = [
        data.draw(st.lists(st.tuples(st.integers(2, 12), st.integers(4, 8)), max_size=2))
        for _ in range(players)
    ]
    result = five_ten_k_settle(
        players=players, base_score=data.draw(st.integers(1, 10)),
        dry=data.draw(st.sampled_from(["none", "half", "full"])),
        xi_mode=data.draw(st.sampled_from(["multiplicative", "additive"])),
        banker=banker, teams=[[0, 2], [1, 3]], finish_order=finish, captured=captured,
        xi_bombs=bombs,
    )
    assert sum(result["deltas"]) == 0
    assert sum(result["settlement"]) == 0
    assert sum(result["xi"]) == 0
