"""510k round flow, table-driven from rules/510k.md: options, cut and deal, bids, teams and the
seat swap, tricks, finishing, round end, settlement, views and snapshots."""

import json

import pytest

from games.engine.actions import Bid, Cut, Pass, Play
from games.engine.cards import code
from games.engine.combos import Reading
from games.engine.errors import IllegalAction
from games.engine.rulesets.five_ten_k.combos import PACK
from games.engine.rulesets.five_ten_k.round import new_round, xi_bombs
from tests.engine.five_ten_k_support import RULES, cards, playing


def refused(code: str, state, seat: int, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        RULES.apply(state, seat, action)
    assert caught.value.code == code
    return caught.value


def act(state, *steps):
    """Apply (seat, action) steps in order; returns the state and every event."""
    events = []
    for seat, action in steps:
        state, more = RULES.apply(state, seat, action)
        events += more
    return state, events


def play(codes: str, state, seat: int) -> Play:
    """The play of `codes` from the seat's hand (a code held twice: its first copy)."""
    hand = list(state.round.hands[seat])
    chosen = []
    for index in cards(codes):
        card = next(c for c in hand if index % 54 == c % 54)
        hand.remove(card)
        chosen.append(card)
    return Play(tuple(chosen))


# -- options --------------------------------------------------------------------------------------


def test_default_options():
    assert RULES.parse_options(None) == {
        "players": 4, "base_score": 1, "dry": "full", "xi_mode": "multiplicative", "rounds": 8
    }
    assert RULES.parse_options({"players": 2, "dry": "none", "rounds": 100})["players"] == 2


@pytest.mark.parametrize(
    ("raw", "option"),
    [
        ({"players": 3}, "players"),
        ({"players": "4"}, "players"),
        ({"base_score": 0}, "base_score"),
        ({"base_score": 11}, "base_score"),
        ({"base_score": True}, "base_score"),  # a bool is not an integer here
        ({"base_score": 2.0}, "base_score"),
        ({"dry": "quarter"}, "dry"),
        ({"dry": 1}, "dry"),
        ({"xi_mode": "power"}, "xi_mode"),
        ({"rounds": 101}, "rounds"),
        ({"rounds": False}, "rounds"),
        ({"decks": 2}, "decks"),
    ],
)
def test_invalid_options(raw, option):
    with pytest.raises(IllegalAction) as caught:
        RULES.parse_options(raw)
    assert caught.value.code == "invalid_option"
    assert caught.value.details["option"] == option


def test_a_match_needs_one_seat_per_player():
    with pytest.raises(IllegalAction) as caught:
        RULES.new_match({"players": 2}, [True, False, False])
    assert caught.value.code == "invalid_option"


def test_the_pack():
    pack = RULES.pack(RULES.parse_options(None))
    assert len(pack) == 88 and len(set(pack)) == 88
    assert {c % 54 // 4 for c in pack} == set(range(2, 13))


# -- cut and deal ---------------------------------------------------------------------------------


def cutting(players=4, deck=PACK, start=0, **options):
    """A match waiting for seat 0's cut, with the shuffled order replaced by `deck` and the deal
    starting `start` seats after the first seat after the cutter."""
    match = RULES.new_match({"players": players, **options}, [True] * players)
    match = RULES.start_round(match, "seed")
    return match._replace(round=match.round._replace(deck=tuple(deck), deal_start=start))


@pytest.mark.parametrize("start", [0, 1, 3])
@pytest.mark.parametrize("position", [0, 1, 2, 3, 45, 87])
def test_the_cut_card_goes_face_up_to_the_seat_it_is_dealt_to(position, start):
    match = cutting(start=start)
    assert RULES.to_act(match) == 0 and RULES.legal_actions(match, 0) == [Cut()]
    match, events = RULES.apply(match, 0, Cut(position))
    rnd = match.round
    holder = (1 + start + position) % 4  # card k goes k + 1 + start places after the cutter
    assert (rnd.face_up, rnd.holder, rnd.cut_position) == (PACK[position], holder, position)
    assert events == [
        {"type": "cut", "seat": 0, "position": position,
         "face_up": {"id": PACK[position], "code": code(PACK[position])},
         "holder": holder}
    ]
    assert [len(h) for h in rnd.hands] == [22] * 4
    assert all(PACK[k] in rnd.hands[(1 + start + k) % 4] for k in range(88))
    assert (rnd.phase, rnd.to_act) == ("bid", holder)


# Chi-square with 3 (1) degrees of freedom: exceeded with probability 0.001.
CHI2_999 = {4: 16.27, 2: 10.83}


@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("position", [0, 1, 2, 3, 42])
def test_the_cut_position_does_not_decide_who_holds_the_face_up_card(players, position):
    """Whatever position the cutter names, the 明牌's holder is uniformly random over the seats
    (the deal's start is drawn from the round's seed)."""
    deals = 800
    held = [0] * players
    for k in range(deals):
        match = RULES.start_round(RULES.new_match({"players": players}, [True] * players),
                                  f"uniform-{k}")
        match, _ = RULES.apply(match, 0, Cut(position))
        held[match.round.holder] += 1
    expected = deals / players
    chi2 = sum((n - expected) ** 2 / expected for n in held)
    assert chi2 < CHI2_999[players], held


def test_a_random_cut_is_drawn_with_the_deal():
    match = cutting()
    drawn = match.round.random_cut
    match, _ = RULES.apply(match, 0, Cut(None))
    assert match.round.cut_position == drawn
    again = RULES.start_round(RULES.new_match({}, [True] * 4), "seed")
    assert again.round.random_cut == drawn  # the seed decides it


@pytest.mark.parametrize(("players", "position"), [(4, 88), (4, -1), (2, 44)])
def test_a_cut_out_of_range_is_refused(players, position):
    refused("invalid_action", cutting(players), 0, Cut(position))


def test_only_the_cutter_cuts_and_plays_wait_for_the_play_phase():
    match = cutting()
    refused("not_your_turn", match, 1, Cut(3))
    refused("wrong_phase", match, 0, Pass())
    refused("invalid_action", match, 0, Bid(True))


def test_two_players_bottom_cut_and_banker():
    match = cutting(players=2)
    match, events = RULES.apply(match, 0, Cut(5))
    rnd = match.round
    assert rnd.bottom == PACK[44:]  # the last 44 of the shuffled order, never dealt
    assert [len(h) for h in rnd.hands] == [22, 22]
    assert rnd.holder == 0 and rnd.face_up == PACK[5]  # card 5 goes to seat (0 + 1 + 5) % 2
    assert (rnd.banker, rnd.phase, rnd.to_act, rnd.teams) == (0, "play", 0, ((0,), (1,)))
    assert events[-1]["type"] == "teams" and events[-1]["banker"] == 0
    refused("invalid_action", match, 0, Bid(True))
    for seat in (None, 0, 1):
        assert "bottom" not in json.dumps(RULES.view(match, seat))
    assert [c["id"] for c in RULES.full_view(match)["bottom"]] == list(PACK[44:])


# -- bids and teams -------------------------------------------------------------------------------


def dealt(holder: int, twin_holder: int):
    """4 players after the cut: the 明牌 (5S) with `holder`, its twin with `twin_holder`."""
    face_up, twin = cards("5S 5S")
    face_at = (holder - 1) % 4  # card k goes to seat (k + 1) % 4
    twin_at = next(k for k in range(4, 88) if (k + 1) % 4 == twin_holder)
    deck = [c for c in PACK if c not in (face_up, twin)]
    deck.insert(face_at, face_up)
    deck.insert(twin_at, twin)
    match, _ = RULES.apply(cutting(deck=deck), 0, Cut(face_at))
    return match


def test_bids_start_with_the_holder_and_the_first_yes_is_the_banker():
    match = dealt(holder=2, twin_holder=0)
    assert RULES.to_act(match) == 2 and RULES.legal_actions(match, 2) == [Bid(True), Bid(False)]
    refused("not_your_turn", match, 0, Bid(True))
    match, events = act(match, (2, Bid(False)), (3, Bid(True)))
    rnd = match.round
    assert (rnd.banker, rnd.teams, rnd.phase, rnd.to_act) == (3, ((3,), (0, 1, 2)), "play", 3)
    assert rnd.bids == ((2, False), (3, True))
    assert rnd.seating == (0, 1, 2, 3)
    assert events[-1] == {"type": "teams", "banker": 3, "teams": [[3], [0, 1, 2]],
                          "seating": [0, 1, 2, 3], "swapped": None, "leader": 3}
    refused("invalid_action", match, 3, Bid(True))


@pytest.mark.parametrize(
    ("holder", "twin_holder", "seating", "teams"),
    [
        (0, 2, (0, 1, 2, 3), [(0, 2), (1, 3)]),  # partner already opposite
        (0, 0, (0, 1, 2, 3), [(0, 2), (1, 3)]),  # both copies: the seat opposite partners
        (1, 1, (0, 1, 2, 3), [(0, 2), (1, 3)]),
        (2, 0, (0, 1, 2, 3), [(0, 2), (1, 3)]),
        (0, 1, (0, 2, 1, 3), [(0, 1), (2, 3)]),  # the partner next after swaps with opposite
        (0, 3, (0, 1, 3, 2), [(0, 3), (1, 2)]),  # the partner just before, too
        (1, 2, (0, 1, 3, 2), [(0, 3), (1, 2)]),
        (1, 0, (3, 1, 2, 0), [(0, 1), (2, 3)]),
        (2, 3, (3, 1, 2, 0), [(0, 1), (2, 3)]),
        (2, 1, (1, 0, 2, 3), [(0, 3), (1, 2)]),
        (3, 0, (1, 0, 2, 3), [(0, 3), (1, 2)]),
        (3, 2, (0, 2, 1, 3), [(0, 1), (2, 3)]),
    ],
)
def test_no_bid_teams_by_the_twin_with_the_seat_swap(holder, twin_holder, seating, teams):
    match = dealt(holder, twin_holder)
    order = [holder, (holder + 1) % 4, (holder + 2) % 4, (holder + 3) % 4]
    match, events = act(match, *((seat, Bid(False)) for seat in order))
    rnd = match.round
    assert rnd.seating == seating
    assert sorted(rnd.teams) == teams
    partner = next(s for team in rnd.teams if holder in team for s in team if s != holder)
    assert abs(seating.index(holder) - seating.index(partner)) == 2  # partners sit opposite
    assert (rnd.banker, rnd.to_act, rnd.phase) == (None, holder, "play")
    moved = events[-1]["swapped"]
    assert (moved is None) == (seating == (0, 1, 2, 3))
    # Turn order follows the new seating.
    lead = RULES.legal_actions(match, holder)[0]
    match, _ = RULES.apply(match, holder, lead)
    assert RULES.to_act(match) == seating[(seating.index(holder) + 1) % 4]


def test_the_seating_and_the_cutter_carry_into_the_next_round():
    match = playing("6H", "7H", "8H", "9H", seating=(0, 2, 1, 3), teams=((0, 1), (2, 3)))
    match = match._replace(round=match.round._replace(phase="over", to_act=None, finished=(2,)))
    nxt = new_round(match, "next")
    assert (nxt.number, nxt.cutter, nxt.to_act, nxt.seating) == (2, 2, 2, (0, 2, 1, 3))


# -- tricks ---------------------------------------------------------------------------------------


def test_a_lead_must_play_and_answers_may_pass():
    match = playing("6H 7H", "8H", "9H", "10H")
    refused("must_play", match, 0, Pass())
    refused("not_your_turn", match, 1, Play(cards("8H")))
    assert RULES.forced_action(match) is None
    match, _ = RULES.apply(match, 0, play("6H", match, 0))
    assert Pass() in RULES.legal_actions(match, 1)


THREE_OF_HEARTS = 1  # a card id, but not of this pack: never in a hand


@pytest.mark.parametrize(
    ("ids", "error"),
    [
        (cards("8H 9H"), "not_a_combination"),
        (cards("5H"), "does_not_beat"),
        (cards("JH"), "card_not_in_hand"),
        ((THREE_OF_HEARTS,), "card_not_in_hand"),
    ],
)
def test_refused_plays(ids, error):
    match = playing("6H", "5H 8H 9H", "7H", "KH", trick=[(0, "6H")], to_act=1)
    refused(error, match, 1, Play(ids))


def test_duplicate_and_unknown_cards():
    match = playing("6H 7H", "8H", "9H", "10H")
    six = cards("6H")[0]
    refused("duplicate_card", match, 0, Play((six, six)))
    refused("unknown_card", match, 0, Play((999,)))


def test_an_ambiguous_play_lists_its_readings_and_a_named_reading_settles_it():
    match = playing("5H 5D 5S 6H 6D 6S 7H 7D 7S 9C", "8H", "9H", "10H")
    three = play("5H 5D 5S 6H 6D 6S 7H 7D 7S", match, 0)
    error = refused("ambiguous_play", match, 0, three)
    assert sorted(error.details["readings"], key=str) == sorted(
        [{"type": "plane", "rank": "6", "length": 9, "triples": 2},
         {"type": "plane", "rank": "7", "length": 9, "triples": 2},
         {"type": "plane", "rank": "7", "length": 9, "triples": 3}], key=str)
    named = Play(three.cards, Reading.from_dict({"type": "plane", "rank": "7", "length": 9,
                                                 "triples": 3}))
    after, events = RULES.apply(match, 0, named)
    assert events[0]["reading"]["triples"] == 3
    refused("not_a_combination", match, 0, Play(three.cards, Reading("straight", 2, 9)))
    # Without the triples count, "plane 7 of 9 cards" still fits two readings.
    unsaid = Play(three.cards, Reading.from_dict({"type": "plane", "rank": "7", "length": 9}))
    refused("ambiguous_play", match, 0, unsaid)


def test_a_trick_goes_to_its_last_player_when_everyone_else_passed():
    match = playing("5H 10H 6C", "6H KH", "7H 9D", "8H 9C", to_act=0)
    match, events = act(
        match,
        (0, play("5H", match, 0)),
        (1, play("KH", match, 1)),
        (2, Pass()),
        (3, Pass()),
    )
    assert RULES.to_act(match) == 0  # seat 0 may still answer: a pass is only final in a row
    match, events = RULES.apply(match, 0, Pass())
    assert events[-1] == {"type": "trick_won", "seat": 1, "points": 15}
    rnd = match.round
    assert (rnd.captured, rnd.trick, rnd.to_act) == ((0, 15, 0, 0), (), 1)


def test_a_finished_trick_winner_hands_the_lead_to_the_next_seat_with_cards():
    match = playing("KH", "6H 9H", "7H 9D", "8H 9C", to_act=0)
    match, events = act(match, (0, play("KH", match, 0)))
    assert {"type": "finished", "seat": 0, "place": 1} in events
    assert RULES.to_act(match) == 1
    match, events = act(match, (1, Pass()), (2, Pass()), (3, Pass()))
    assert events[-1] == {"type": "trick_won", "seat": 0, "points": 10}
    assert RULES.to_act(match) == 1 and match.round.trick == ()


def test_finished_seats_are_skipped_and_need_not_pass():
    match = playing("6H", "7H 7D", "8H 8D", "9H 9D", to_act=0)
    match, _ = act(match, (0, play("6H", match, 0)), (1, play("7H", match, 1)))
    match, events = act(match, (2, Pass()), (3, Pass()))
    assert events[-1]["type"] == "trick_won" and RULES.to_act(match) == 1
    match, _ = act(match, (1, play("7D", match, 1)), (2, Pass()))
    assert RULES.to_act(match) == 3  # seat 0 has finished: 2 is followed by 3


def test_forced_pass_only_without_an_answer():
    match = playing("6H 7H", "2H 5D", "5C", "5S", trick=[(0, "AH")], to_act=1)
    assert RULES.forced_action(match) is None  # 2H beats the ace
    match, _ = act(match, (1, Pass()))
    assert RULES.forced_action(match) == Pass()
    assert RULES.legal_actions(match, 2) == [Pass()]


# -- round end and settlement ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dry", "deltas", "level"),
    [("full", [4, -4, 4, -4], "full_dry"), ("half", [2, -2, 2, -2], "half_dry"),
     ("none", [1, -1, 1, -1], "normal")],
)
def test_a_side_out_ends_the_round_and_the_table_goes_to_its_last_player(dry, deltas, level):
    match = playing("KH", "6H 5D", "10H", "7H 10D", to_act=0, dry=dry)
    match, _ = act(match, (0, play("KH", match, 0)), (1, Pass()), (2, Pass()), (3, Pass()))
    assert RULES.to_act(match) == 1
    match, events = act(match, (1, play("6H", match, 1)), (2, play("10H", match, 2)))
    # Seats 0 and 2 are out: the round ends at once, seat 2 takes the 6H-10H trick.
    assert RULES.round_over(match) and RULES.to_act(match) is None
    assert [e["type"] for e in events] == ["play", "play", "finished", "trick_won", "round_end"]
    rnd = match.round
    assert rnd.captured == (10, 0, 10, 0)  # the 5D and 10D left in hands count for nobody
    assert rnd.finished == (0, 2)
    result = RULES.round_result(match)
    assert result["deltas"] == deltas and result["summary"]["level"] == level
    assert result["summary"]["side_scores"] == [60, -40]  # 20 + 40 for 上游, 0 − 40 for 下游
    assert list(RULES.table(match).scores) == deltas
    assert [b["place"] for b in result["breakdown"]] == [1, None, 2, None]
    assert [len(h) for h in result["hands"]] == [0, 1, 0, 2]


def test_a_banker_out_first_wins_at_once():
    match = playing("5H", "2H", "5D", "5C", banker=1, teams=((1,), (0, 2, 3)), to_act=1)
    match, events = act(match, (1, play("2H", match, 1)))
    assert RULES.round_over(match)
    assert [e["type"] for e in events] == ["play", "finished", "trick_won", "round_end"]
    result = RULES.round_result(match)
    # 0 + 40 against 0 − 40; the defenders captured nothing: full-dry, 2 × 4 each, 24 in.
    assert result["deltas"] == [-8, 24, -8, -8]
    assert result["summary"]["winner_seats"] == [1]


def test_defenders_all_out_leave_the_banker_alone_and_end_the_round():
    match = playing("5H", "6H 2D", "7H", "8H", banker=1, teams=((1,), (0, 2, 3)), to_act=0)
    match, _ = act(match, (0, play("5H", match, 0)), (1, Pass()), (2, play("7H", match, 2)))
    match, _ = act(match, (3, play("8H", match, 3)))
    assert RULES.round_over(match)
    assert match.round.finished == (0, 2, 3) and match.round.captured == (0, 0, 0, 5)
    # Defenders 5 + 40; banker 0 − 40: the banker loses with 0 captured, pays full-dry: 8 each.
    assert RULES.round_result(match)["deltas"] == [8, -24, 8, 8]


def test_two_players_round_end_and_result_shows_the_bottom():
    match = playing("KH 5H", "6H", banker=0, teams=((0,), (1,)), to_act=0)
    match = match._replace(round=match.round._replace(bottom=cards("9S 9D")))
    match, _ = act(match, (0, play("KH", match, 0)), (1, Pass()), (0, play("5H", match, 0)))
    assert RULES.round_over(match)
    result = RULES.round_result(match)
    # 15 + 20 against 0 − 20: the loser captured nothing, full-dry, base 1: 4.
    assert result["deltas"] == [4, -4]
    assert [c["code"] for c in result["bottom"]] == ["9S", "9D"]


def test_xi_bombs_count_played_pieces_and_what_is_held():
    match = playing("2H 2D 2S 2C 9H", "5H 5D 5S 5C 5H 6D", "7H", "8H", to_act=0)
    fives = play("5H 5D 5S 5C 5H", match, 1)
    match, _ = act(match, (0, play("9H", match, 0)), (1, fives))
    assert match.round.xi_played[1] == ((2, 5),)  # five 5s played
    assert xi_bombs(match.round) == [[(12, 4)], [(2, 5)], [], []]  # four 2s held count too
    split = playing("5H 5D 5S 5C 5H 6D 9H", "8H", "7H", "6H", to_act=0)
    split, _ = act(split, (0, play("5H 5D 5S 5C", split, 0)))
    assert xi_bombs(split.round)[0] == []  # a 4-card bomb and one 5 left: nothing


@pytest.mark.parametrize(
    ("xi_mode", "fives", "base_score", "xi"),
    [
        ("multiplicative", 5, 1, [-1, 3, -1, -1]),
        ("multiplicative", 7, 1, [-4, 12, -4, -4]),
        ("additive", 7, 1, [-3, 9, -3, -3]),
        ("multiplicative", 7, 3, [-4, 12, -4, -4]),  # xi points ignore base_score
    ],
)
def test_round_result_itemises_held_xi(xi_mode, fives, base_score, xi):
    match = playing(
        "KH", " ".join(["6H", *(["5H", "5D", "5S", "5C"] * 2)[:fives]]), "10H", "7H",
        to_act=0, xi_mode=xi_mode, base_score=base_score,
    )
    match, _ = act(match, (0, play("KH", match, 0)), (1, Pass()), (2, Pass()), (3, Pass()))
    match, _ = act(match, (1, play("6H", match, 1)), (2, play("10H", match, 2)))
    result = RULES.round_result(match)
    assert result["xi_bombs"][1] == [{"rank": "5", "count": fives, "played": False}]
    assert result["settlement"]["xi"] == xi
    settlement = [4 * base_score, -4 * base_score] * 2  # full-dry: the losers captured nothing
    assert result["deltas"] == [s + x for s, x in zip(settlement, xi, strict=True)]


def test_no_action_after_the_round_or_the_match():
    match = playing("KH", "6H", "7H", "8H", to_act=0, rounds=2)
    match, _ = act(match, (0, play("KH", match, 0)), (1, Pass()), (2, Pass()), (3, Pass()))
    match, _ = act(match, (1, play("6H", match, 1)), (2, play("7H", match, 2)))
    table = RULES.table(match)
    assert RULES.round_over(match) and not table.match_over and table.needs_round
    refused("round_over", match, 1, Pass())
    assert RULES.legal_actions(match, 3) == [] and RULES.to_act(match) is None
    last = match._replace(options=match.options._replace(rounds=1))
    assert RULES.table(last).match_over and not RULES.table(last).needs_round
    refused("match_over", last, 1, Pass())
    with pytest.raises(IllegalAction):
        RULES.start_round(last, "x")


def test_standings_share_ranks_on_equal_scores():
    match = playing("KH", "6H", "7H", "8H")._replace(scores=(3, 5, 3, -11))
    assert RULES.standings(match) == [
        {"seat": 1, "score": 5, "rank": 1}, {"seat": 0, "score": 3, "rank": 2},
        {"seat": 2, "score": 3, "rank": 2}, {"seat": 3, "score": -11, "rank": 4},
    ]


def test_sides_are_the_last_rounds_teams_ranked_by_their_summed_scores():
    match = playing("KH", "6H", "7H", "8H", teams=((0, 2), (1, 3)))._replace(scores=(3, 5, 4, -12))
    assert RULES.sides(match) == [{"seats": [0, 2], "rank": 1}, {"seats": [1, 3], "rank": 2}]
    banked = playing("KH", "6H", "7H", "8H", teams=((1,), (0, 2, 3)), banker=1)
    assert RULES.sides(banked._replace(scores=(-4, 12, -4, -4))) == [
        {"seats": [1], "rank": 1}, {"seats": [0, 2, 3], "rank": 2}]
    assert RULES.sides(match._replace(scores=(3, 5, 2, 0))) == [
        {"seats": [0, 2], "rank": 1}, {"seats": [1, 3], "rank": 1}]


def test_two_player_sides_are_the_seats_by_score():
    match = playing("KH", "6H", teams=((0,), (1,)))._replace(scores=(-6, 6))
    assert RULES.sides(match) == [{"seats": [1], "rank": 1}, {"seats": [0], "rank": 2}]


# -- views and snapshots --------------------------------------------------------------------------


def test_views_hide_other_hands():
    match = dealt(holder=1, twin_holder=3)
    match, _ = act(match, (1, Bid(False)), (2, Bid(False)), (3, Bid(False)), (0, Bid(False)))
    holder = RULES.to_act(match)
    view = RULES.view(match, holder)
    assert [c["id"] for c in view["hand"]] == list(match.round.hands[holder])
    assert all(c["playable"] for c in view["hand"])  # a free lead: any single
    other = RULES.view(match, (holder + 1) % 4)
    assert not any(c["playable"] for c in other["hand"])
    for seat in range(4):
        text = json.dumps(RULES.view(match, seat))
        hidden = {c for s in range(4) if s != seat for c in match.round.hands[s]}
        ids = {c["id"] for c in RULES.view(match, seat)["hand"]}
        assert not hidden & ids and "hands" not in json.loads(text)
    onlooker = RULES.view(match, None)
    assert "hand" not in onlooker and onlooker["counts"] == [22] * 4
    assert onlooker["face_up"] == {"card": {"id": match.round.face_up, "code": "5S"}, "holder": 1}
    assert onlooker["seating"] == list(match.round.seating)
    assert len(RULES.full_view(match)["hands"]) == 4


def test_playable_flags_when_answering():
    match = playing("6H", "5H 8H 8D 9H", "7H", "KH", trick=[(0, "6H")], to_act=1)
    hand = {c["code"]: c["playable"] for c in RULES.view(match, 1)["hand"]}
    assert hand == {"5H": False, "8H": True, "8D": True, "9H": True}
    triple = playing("6H", "9H 9D 9S 5C", "7H", "KH", trick=[(0, "8H 8D 8S")], to_act=1)
    assert all(c["playable"] for c in RULES.view(triple, 1)["hand"])  # 5C as an extra
    table = RULES.view(match, 0)["trick"]
    assert table == [{"seat": 0, "cards": [{"id": cards("6H 6H")[1], "code": "6H"}],
                      "reading": {"type": "single", "rank": "6", "length": 1}, "latest": True}]


@pytest.mark.parametrize("stage", ["new", "cut", "bid", "play"])
def test_snapshots_round_trip(stage):
    match = RULES.new_match({"players": 4, "rounds": 3}, [True, False, False, True])
    if stage != "new":
        match = cutting(rounds=3)
    if stage in ("bid", "play"):
        match, _ = RULES.apply(match, 0, Cut(7))
    if stage == "play":
        match, _ = act(match, *((s, Bid(False)) for s in (0, 1, 2, 3)))
        match, _ = RULES.apply(match, 0, RULES.legal_actions(match, 0)[-1])
    data = json.loads(json.dumps(RULES.to_json(match)))
    assert RULES.from_json(data) == match
    assert RULES.from_json(RULES.to_json(match)) == match


@pytest.mark.parametrize(("players", "positions"), [(4, 88), (2, 44)])
def test_the_view_says_how_many_cut_positions_there_are(players, positions):
    match = cutting(players)
    assert RULES.view(match, 0)["cut_positions"] == positions
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(match, 0, Cut(positions))
    assert refused.value.code == "invalid_action"
