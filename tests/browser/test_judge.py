"""The page's judge of a selection (web/static/web/js/judge.js), run in Chromium on views made
here: which listed play the selected cards make, with 510k extras (带牌) and gandengyan jokers."""

import pytest


def card(id_, code):
    return {"id": id_, "code": code, "playable": True}


def play(cards, kind, rank, length, **more):
    return {"type": "play", "cards": cards, "reading": {"type": kind, "rank": rank,
                                                        "length": length}, **more}


FIVE_TEN_K = {
    "ruleset": "510k",
    "options": {"players": 4},
    "state": {"hand": [card(8, "5S"), card(9, "5H"), card(10, "5C"), card(20, "8S"),
                       card(24, "9S"), card(40, "KS"), card(44, "AS"), card(98, "AS"),
                       card(99, "AH"), card(100, "AC")],
              "trick": []},
    "legal_actions": [play([8, 9, 10], "triple", "5", 3, extras=2),
                      play([20], "single", "8", 1), play([44, 98, 99, 100], "bomb", "A", 4)],
}
GANDENGYAN = {
    "ruleset": "gandengyan",
    "options": {"decks": 1, "players": 4},
    "state": {"hand": [card(0, "3S"), card(20, "8S"), card(21, "8H"), card(52, "SJ"),
                       card(53, "BJ")],
              "trick": [], "free_lead": True},
    "legal_actions": [play([20, 21], "pair", "8", 2), play([20, 52], "pair", "8", 2),
                      play([0, 52, 53], "straight", "3", 3), play([0, 52, 53], "bomb", "3", 3)],
}


@pytest.fixture
def judge(open_page):
    page = open_page()

    def listed(view, selected):
        return page.evaluate(
            """async ([view, selected]) => {
                 const judge = await import('/static/web/js/judge.js');
                 return judge.listedPlays(view, selected).map(p => [p.cards, p.reading]);
               }""", [view, selected])

    return listed


@pytest.mark.parametrize(("selected", "length"), [
    ([8, 9, 10], 3), ([8, 9, 10, 20], 4), ([8, 9, 10, 20, 24], 5)])
def test_a_510k_triple_carries_up_to_its_extras(judge, selected, length):
    assert judge(FIVE_TEN_K, selected) == [
        [selected, {"type": "triple", "rank": "5", "length": length}]]


@pytest.mark.parametrize("selected", [
    [8, 9, 10, 20, 24, 40],  # three extras: two allowed
    [8, 9, 10, 44, 98, 99, 100],  # four of a rank is a bomb, never extras
    [8, 20],  # not listed at all
    [],
])
def test_a_selection_no_listed_play_makes(judge, selected):
    assert judge(FIVE_TEN_K, selected) == []


def test_suits_do_not_matter_and_a_joker_fills_a_pair(judge):
    assert judge(GANDENGYAN, [21, 53]) == [[[21, 53], {"type": "pair", "rank": "8", "length": 2}]]


def test_cards_that_read_two_ways_offer_both(judge):
    readings = [reading["type"] for _, reading in judge(GANDENGYAN, [0, 52, 53])]
    assert readings == ["straight", "bomb"]
