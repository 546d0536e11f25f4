"""Gandengyan round flow, table-driven from rules/gandengyan.md: options, the deal and dice,
tricks and draws, forfeits, refusals, settlement, elimination, views and snapshots."""

import json
import random

import pytest

from games.engine.actions import Bid, Cut, Pass, Play
from games.engine.cards import make_pack
from games.engine.errors import IllegalAction
from games.engine.rulesets.gandengyan.settle import settle as gandengyan_settle
from games.engine.rulesets.gandengyan.state import LOG_TAIL, LOGGED, Match
from tests.engine.gandengyan_support import RULES, cards, playing, reading


def play(state, seat, codes, decks=1, named=None):
    return RULES.apply(state, seat, Play(cards(codes, decks), named))


def types(events) -> list[str]:
    return [e["type"] for e in events]


def refused(state, seat, action) -> IllegalAction:
    before = RULES.to_json(state)
    with pytest.raises(IllegalAction) as err:
        RULES.apply(state, seat, action)
    assert RULES.to_json(state) == before
    return err.value


# -- options ---------------------------------------------------------------------------------


def test_option_defaults():
    assert RULES.parse_options(None) == {"decks": 1, "players": 4, "starting_score": 500}
    assert RULES.parse_options({"decks": 2, "players": 6, "starting_score": 100000}) == {
        "decks": 2, "players": 6, "starting_score": 100000}


@pytest.mark.parametrize(
    ("raw", "option"),
    [
        ({"jokers": 2}, "jokers"),
        ({"decks": 3}, "decks"),
        ({"decks": 0}, "decks"),
        ({"decks": True}, "decks"),
        ({"decks": "1"}, "decks"),
        ({"players": 3}, "players"),
        ({"players": 7}, "players"),
        ({"players": 4.0}, "players"),
        ({"starting_score": 0}, "starting_score"),
        ({"starting_score": 100001}, "starting_score"),
        ({"starting_score": False}, "starting_score"),
        ([("decks", 1)], None),
    ],
)
def test_invalid_options(raw, option):
    with pytest.raises(IllegalAction) as err:
        RULES.parse_options(raw)
    assert err.value.code == "invalid_option"
    assert err.value.details["option"] == option


@pytest.mark.parametrize("humans", [[False] * 3, [False] * 5, [0, 0, 0, 0]])
def test_new_match_needs_one_flag_per_seat(humans):
    with pytest.raises(IllegalAction) as err:
        RULES.new_match({}, humans)
    assert (err.value.code, err.value.details["option"]) == ("invalid_option", "players")


# -- the deal --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decks", "players", "pile"),
    [(1, 4, 34), (1, 5, 29), (1, 6, 24), (2, 4, 88), (2, 5, 83), (2, 6, 78)],
)
def test_deal_sizes_and_the_leader_draw(decks, players, pile):
    state = RULES.start_round(
        RULES.new_match({"decks": decks, "players": players}, [False] * players), "deal")
    rnd = state.round
    assert len(rnd.pile) == pile - 1  # the leader drew one before leading
    assert [len(h) for h in rnd.hands] == [6 if s == rnd.leader else 5 for s in range(players)]
    everything = [c for h in rnd.hands for c in h] + list(rnd.pile)
    assert sorted(everything) == sorted(make_pack(decks))
    assert rnd.to_act == rnd.leader and not rnd.trick
    assert RULES.legal_actions(state, rnd.leader) and Pass() not in RULES.legal_actions(
        state, rnd.leader)


def test_same_seed_same_deal_dice_and_pile():
    match = RULES.new_match({}, [False] * 4)
    assert RULES.start_round(match, "abc") == RULES.start_round(match, "abc")
    other = RULES.start_round(match, "abd")
    assert RULES.start_round(match, "abc").round.hands != other.round.hands


@pytest.mark.parametrize("players", [4, 5, 6])
def test_dice_reroll_above_the_seat_count(players):
    match = RULES.new_match({"players": players}, [False] * players)
    rerolled = 0
    for n in range(40):
        rnd = RULES.start_round(match, f"dice-{n}").round
        *again, last = rnd.dice
        assert all(players < roll <= 6 for roll in again)
        assert 1 <= last <= players
        assert rnd.leader == last - 1
        rerolled += bool(again)
    assert bool(rerolled) is (players < 6)  # with 4 or 5 seats some seed rolls a 5 or 6 first


def test_later_rounds_the_winner_leads_without_dice():
    state = playing("5H", "6C 7C", "8C 9C", "10C JC", pile="3S 4S")
    state, _ = play(state, 0, "5H")
    nxt = RULES.start_round(state, "next")
    assert nxt.round.number == 3 and nxt.round.dice == () and nxt.round.leader == 0


def test_an_eliminated_winner_hands_the_lead_to_the_next_live_seat():
    state = playing("5H", "6C 7C", "8C 9C", "10C JC", "QC KC", "AC", pile="3S")
    state, _ = play(state, 0, "5H")
    # Decision: not reachable by play (a winner only gains), so the state is built by hand.
    state = state._replace(eliminated=(True, True, False, False, False, False))
    nxt = RULES.start_round(state, "next").round
    assert nxt.leader == 2
    assert nxt.hands[0] == nxt.hands[1] == () and nxt.seated == (False, False) + (True,) * 4
    assert len(nxt.pile) == 54 - 4 * 5 - 1


# -- tricks ----------------------------------------------------------------------------------


def test_a_pass_is_not_final_and_the_unanswered_player_draws():
    state = playing("5H 9D KC", "7S 8S QC", "6D JD 10S", "3C 4C 10H", pile="AS AH")
    state, events = play(state, 0, "5H")
    assert state.round.to_act == 1 and RULES.forced_action(state) == Pass()
    state, _ = RULES.apply(state, 1, Pass())
    state, _ = play(state, 2, "6D")
    assert len(state.round.pile) == 2  # a play was beaten: nobody draws
    for seat in (3, 0):
        state, _ = RULES.apply(state, seat, Pass())
    assert state.round.to_act == 1  # seat 1 passed before, and answers the new play
    assert Play(cards("7S"), reading("single", "7", 1)) in RULES.legal_actions(state, 1)
    state, _ = play(state, 1, "7S")
    assert [t.seat for t in state.round.trick] == [0, 2, 1]
    state, _ = RULES.apply(state, 2, Pass())
    state, _ = RULES.apply(state, 3, Pass())
    state, events = RULES.apply(state, 0, Pass())
    assert types(events) == ["pass", "trick_won", "draw"]
    assert events[1:] == [{"type": "trick_won", "seat": 1},
                          {"type": "draw", "seat": 1, "pile": 1}]
    rnd = state.round
    assert rnd.trick == () and rnd.to_act == 1 and cards("AH")[0] in rnd.hands[1]
    assert RULES.forced_action(state) is None
    assert refused(state, 1, Pass()).code == "must_play"


def test_an_unanswered_play_with_an_empty_pile_draws_nothing():
    state = playing("5H 9D", "7S", "8D", "3C")
    state, _ = play(state, 0, "5H")
    for seat in (1, 2):
        state, _ = RULES.apply(state, seat, Pass())
    state, events = RULES.apply(state, 3, Pass())
    assert types(events) == ["pass", "trick_won"]
    assert state.round.to_act == 0 and state.round.hands[0] == cards("9D")


def test_forced_action_only_without_a_legal_answer():
    state = playing("5H 9D KC", "6S", "2D", "9C 9S SJ")
    assert RULES.forced_action(state) is None  # a free lead is never forced
    state, _ = play(state, 0, "5H")
    assert RULES.forced_action(state) is None  # seat 1 can play the 6
    state, _ = RULES.apply(state, 1, Pass())
    assert RULES.forced_action(state) is None  # the single 2
    state, _ = RULES.apply(state, 2, Pass())
    assert RULES.forced_action(state) is None  # the bomb 9 9 joker
    state, _ = RULES.apply(state, 3, Pass())
    state, _ = play(state, 0, "9D")
    assert RULES.forced_action(state) == Pass()  # a 6 on a 9


def test_winning_on_an_empty_hand_ends_the_round_at_once():
    state = playing("5H", "6S 7S", "8D", "9C", pile="3C 4C")
    state, events = play(state, 0, "5H")
    assert types(events) == ["play", "round_end"]
    assert events[1]["winner"] == 0 and events[1]["reason"] == "empty_hand"
    assert RULES.round_over(state) and RULES.to_act(state) is None
    assert RULES.legal_actions(state, 1) == [] and RULES.forced_action(state) is None
    assert RULES.table(state).needs_round and not RULES.table(state).match_over
    assert refused(state, 1, Pass()).code == "round_over"


# -- forfeits --------------------------------------------------------------------------------


def test_a_seat_whose_turn_comes_with_only_jokers_forfeits():
    state = playing("5H 6H", "SJ", "BJ", "7C 8C 9D", decks=2)
    state, events = play(state, 0, "5H", decks=2)
    assert types(events) == ["play", "forfeit", "forfeit"]
    assert state.round.forfeited == (False, True, True, False) and state.round.to_act == 3
    state, _ = RULES.apply(state, 3, Pass())
    assert state.round.to_act == 0  # forfeited seats take no more turns: the trick is won
    state, _ = play(state, 0, "6H", decks=2)
    result = RULES.round_result(state)
    assert result["deltas"] == [6, 0, 0, -6]  # forfeited jokers count 0; seat 3 played nothing


def test_forfeits_leaving_one_holder_make_them_the_winner():
    state = playing("5H 6H", "SJ", "BJ", "SJ BJ", decks=2)
    state, events = play(state, 0, "5H", decks=2)
    assert types(events) == ["play", "forfeit", "forfeit", "forfeit", "round_end"]
    assert events[-1]["winner"] == 0 and events[-1]["reason"] == "last_holder"
    assert RULES.round_result(state)["deltas"] == [0, 0, 0, 0]


@pytest.mark.parametrize(("pile", "forfeits"), [("", True), ("BJ", True), ("3D", False)])
def test_forfeit_at_a_lead_after_the_draw(pile, forfeits):
    """Decision: a seat that must lead holding only jokers (after drawing) forfeits; the next
    live seat leads freely."""
    state = playing("5H SJ", "3S", "4S", "4D", pile=pile)
    state, _ = play(state, 0, "5H")
    for seat in (1, 2):
        state, _ = RULES.apply(state, seat, Pass())
    state, events = RULES.apply(state, 3, Pass())
    drew = ["draw"] if pile else []
    assert types(events) == ["pass", "trick_won", *drew, *(["forfeit"] if forfeits else [])]
    assert state.round.to_act == (1 if forfeits else 0) and state.round.trick == ()
    assert Pass() not in RULES.legal_actions(state, state.round.to_act)


# -- refusals --------------------------------------------------------------------------------


def test_every_refusal_code():
    state = playing("3H 5H 9D SJ BJ", "6S 7S", "8D", "9C", pile="3C")
    assert refused(state, 1, Pass()).code == "not_your_turn"
    assert refused(state, 0, Pass()).code == "must_play"
    assert refused(state, 0, Cut()).code == "invalid_action"
    assert refused(state, 0, Bid(True)).code == "invalid_action"
    assert refused(state, 0, Play(cards("5H"), extras=1)).code == "invalid_action"
    for bad in (54, 999, -1, True):
        assert refused(state, 0, Play((bad,))).code == "unknown_card"
    assert refused(state, 0, Play(cards("5H") * 2)).code == "duplicate_card"
    assert refused(state, 0, Play(cards("5H 6S"))).code == "card_not_in_hand"
    assert refused(state, 0, Play(())).code == "not_a_combination"
    assert refused(state, 0, Play(cards("5H 9D"))).code == "not_a_combination"
    assert refused(state, 0, Play(cards("SJ"))).code == "not_a_combination"
    assert refused(state, 0, Play(cards("SJ BJ"))).code == "not_a_combination"
    named_wrong = Play(cards("5H"), reading("pair", "5", 2))
    assert refused(state, 0, named_wrong).code == "not_a_combination"

    ambiguous = refused(state, 0, Play(cards("3H SJ BJ")))
    assert ambiguous.code == "ambiguous_play"
    assert ambiguous.details["readings"] == [
        {"type": "straight", "rank": "3", "length": 3}, {"type": "bomb", "rank": "3", "length": 3}]
    after, events = play(state, 0, "3H SJ BJ", named=reading("bomb", "3", 3))
    assert events[0]["reading"] == {"type": "bomb", "rank": "3", "length": 3}
    assert after.round.bombs == (3,)

    after, _ = play(state, 0, "5H")
    assert refused(after, 1, Play(cards("7S"))).code == "does_not_beat"
    assert refused(after, 1, Play(cards("6S"), reading("single", "7", 1))).code == (
        "not_a_combination")


def test_context_settles_a_reading_and_a_named_one_must_beat():
    state = playing("3S 4D 5C KC", "SJ 5H 6D", "8D", "9C")
    state, _ = play(state, 0, "3S 4D 5C")
    five_six_seven = Play(cards("SJ 5H 6D"), reading("straight", "5", 3))
    assert refused(state, 1, five_six_seven).code == "does_not_beat"
    state, events = play(state, 1, "SJ 5H 6D")  # only 4-5-6 beats 3-4-5: no naming needed
    assert events[0]["reading"] == {"type": "straight", "rank": "4", "length": 3}


def test_phase_refusals():
    match = RULES.new_match({"starting_score": 1}, [False] * 4)
    assert refused(match, 0, Pass()).code == "wrong_phase"
    with pytest.raises(IllegalAction) as err:
        RULES.round_result(match)
    assert err.value.code == "wrong_phase"
    dealt = RULES.start_round(match, "s")
    with pytest.raises(IllegalAction) as err:
        RULES.start_round(dealt, "t")
    assert err.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as err:
        RULES.round_result(dealt)
    assert err.value.code == "wrong_phase"

    over = playing("5H", "6S", "8D", "9C", scores=(1, 1, 1, 1))
    over, events = play(over, 0, "5H")
    assert RULES.table(over).match_over and types(events)[-1] == "match_end"
    assert refused(over, 1, Pass()).code == "match_over"
    with pytest.raises(IllegalAction) as err:
        RULES.start_round(over, "u")
    assert err.value.code == "match_over"


# -- settlement, elimination, match end ------------------------------------------------------


def test_settlement_through_a_round():
    state = playing("5H", "3C 4C 8D 9D 10S", "6C", "7C 7D",
                    played_any=(True, True, False, True), bombs=(3, 4))
    state, events = play(state, 0, "5H")
    expected = gandengyan_settle(winner=0, remaining=[0, 5, 1, 2],
                                 played_any=[True, True, False, True],
                                 forfeited=[False] * 4, bombs=[3, 4], decks=1)
    assert expected["deltas"] == [112, -80, -16, -16]  # ×2 for 5 left or nothing played, ×8
    assert events[-1]["deltas"] == expected["deltas"]
    assert state.scores == (612, 420, 484, 484)
    result = RULES.round_result(state)
    assert result["deltas"] == expected["deltas"] and result["breakdown"] == expected["breakdown"]
    assert result["winner"] == 0 and result["bombs"] == [3, 4] and result["bomb_factor"] == 8
    assert result["summary"]["winner"] == 0
    assert result["hands"][1] == [{"id": c, "code": code} for c, code in
                                  zip(cards("3C 4C 8D 9D 10S"), "3C 4C 8D 9D 10S".split(),
                                      strict=True)]


def test_a_winning_bomb_counts_in_its_own_round():
    state = playing("8H 8D 8S", "3C", "4C", "6C", played_any=(True,) * 4)
    state, events = play(state, 0, "8H 8D 8S")
    assert events[-1]["deltas"] == [6, -2, -2, -2]


@pytest.mark.parametrize(
    ("players", "scores", "humans", "eliminated", "over"),
    [
        (4, (500, 3, 500, 500), None, [], False),
        (4, (500, 2, 500, 500), None, [1], True),  # exactly 0 is out; three seats left
        (4, (500, 1, 500, 500), None, [1], True),
        (5, (500, 2, 500, 500, 500), None, [1], False),
        (5, (500, 2, 2, 500, 500), None, [1, 2], True),
        (5, (500, 2, 500, 500, 500), (False, True, False, False, False), [1], True),  # no human
        (5, (500, 3, 500, 500, 500), None, [], False),
    ],
)
def test_elimination_and_match_end(players, scores, humans, eliminated, over):
    hands = ["5H", "3C 4C", "3D 4D", "6D", "7D"][:players]  # seats 1 and 2 lose 2 points
    state = playing(*hands, scores=scores, humans=humans, played_any=(True,) * players)
    state, events = play(state, 0, "5H")
    assert [e["seat"] for e in events if e["type"] == "eliminated"] == eliminated
    assert [s for s in range(players) if state.eliminated[s]] == eliminated
    assert RULES.table(state).match_over is over and RULES.table(state).needs_round is not over
    assert ("match_end" in types(events)) is over
    assert sum(state.scores) == sum(scores)
    if over:
        assert events[-1]["standings"] == RULES.standings(state)
        assert RULES.view(state, None)["phase"] == "match_over"
    else:
        nxt = RULES.start_round(state, "next").round
        assert all(nxt.hands[s] == () and not nxt.seated[s] for s in eliminated)
        assert len(nxt.pile) == 54 - 5 * (players - len(eliminated)) - 1


def test_standings_by_score_then_seat():
    state = playing("5H", "6S", "8D", "9C", "10C", scores=(10, 30, 10, 30, 20))
    assert [(s["seat"], s["rank"]) for s in RULES.standings(state)] == [
        (1, 1), (3, 2), (4, 3), (0, 4), (2, 5)]


# -- views and snapshots ---------------------------------------------------------------------


def test_view_shows_my_cards_the_table_and_counts_only():
    state = playing("5H 9D", "6D 9C KS", "7C", "8C", pile="3S 4S")
    state, _ = play(state, 0, "5H")
    mine = RULES.view(state, 1)
    assert [(c["code"], c["playable"]) for c in mine["hand"]] == [
        ("6D", True), ("9C", False), ("KS", False)]
    assert mine["trick"] == [{"seat": 0, "cards": [{"id": cards("5H")[0], "code": "5H"}],
                              "reading": {"type": "single", "rank": "5", "length": 1},
                              "latest": True}]
    assert mine["counts"] == [1, 3, 1, 1]
    assert mine["pile"] == 2 and mine["to_act"] == 1 and mine["seat"] == 1
    assert not mine["free_lead"] and mine["phase"] == "play"
    waiting = RULES.view(state, 2)
    assert [c["playable"] for c in waiting["hand"]] == [False]  # not my turn
    public = RULES.view(state, None)
    assert "hand" not in public and "hands" not in public and public["seat"] is None
    full = RULES.full_view(state)
    assert [len(h) for h in full["hands"]] == [1, 3, 1, 1]
    assert [c["code"] for c in full["pile_cards"]] == ["4S", "3S"]  # next drawn first
    with pytest.raises(ValueError):
        RULES.view(state, -1)


def test_view_lists_the_cards_played_this_round():
    state = RULES.start_round(RULES.new_match({}, [False] * 4), "played")
    assert RULES.view(state, None)["played"] == []
    seat = RULES.to_act(state)
    lead = RULES.legal_actions(state, seat)[-1]
    state, _ = RULES.apply(state, seat, lead)
    assert [c["id"] for c in RULES.view(state, None)["played"]] == sorted(lead.cards)


def test_view_before_the_first_round():
    view = RULES.view(RULES.new_match({}, [True, False, False, False]), 0)
    assert view["phase"] == "waiting" and view["hand"] == [] and view["round"] == 0
    assert view["humans"][0] and view["to_act"] is None


@pytest.mark.parametrize(
    "state",
    [
        RULES.new_match({"decks": 2, "players": 6}, [True] + [False] * 5),
        RULES.start_round(RULES.new_match({}, [False] * 4), "json"),
        playing("3H SJ BJ", "6D", "8D", "9C", table=[(1, "4S 5S 6S")], bombs=(3,), to_act=0),
        play(playing("5H", "6S", "8D", "9C"), 0, "5H")[0],
    ],
)
def test_snapshot_round_trip(state):
    data = json.loads(json.dumps(RULES.to_json(state)))
    again = RULES.from_json(data)
    assert again == state and isinstance(again, Match)
    assert RULES.view(again, 0) == RULES.view(state, 0)


def test_the_log_holds_the_latest_public_events_of_the_round_in_order():
    state = RULES.start_round(RULES.new_match({"players": 5}, [False] * 5), "log")
    rng = random.Random(5)
    expected = [{"type": "draw", "seat": state.round.leader, "cards": [], "reading": None}]
    heard = []
    while not RULES.round_over(state):
        seat = RULES.to_act(state)
        state, events = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
        state = RULES.remember(state, events)
        heard += events
        expected += [{"type": e["type"], "seat": e["seat"], "cards": e.get("cards", []),
                      "reading": e.get("reading")} for e in events if e["type"] in LOGGED]
        assert RULES.view(state, (seat + 1) % 5)["log"] == expected[-LOG_TAIL:]
        whole = RULES.remember(state, heard, whole=True)
        assert RULES.view(whole, (seat + 1) % 5)["log"] == expected
    assert len(expected) > LOG_TAIL
    assert {e["type"] for e in expected} >= {"play", "pass", "trick_won", "draw"}


def test_an_action_alone_keeps_no_log():
    state = RULES.start_round(RULES.new_match({"players": 4}, [False] * 4), "quiet")
    seat = RULES.to_act(state)
    after, events = RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])
    assert events and after.round.log == state.round.log


def test_a_snapshot_saved_before_the_log_was_kept_loads_with_an_empty_log():
    state = play(playing("5H 9D", "6S", "8D", "9C"), 0, "5H")[0]
    data = RULES.to_json(state)
    del data["round"]["log"]
    assert RULES.from_json(data) == state._replace(round=state.round._replace(log=()))
