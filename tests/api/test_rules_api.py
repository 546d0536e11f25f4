"""The public rules endpoints: contract shape, readings, comparisons, settlement, refusals."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def post():
    client = APIClient()

    def send(ruleset, endpoint, body):
        return client.post(f"/api/v1/rules/{ruleset}/{endpoint}/", body, format="json")

    return send


def readings(response):
    return sorted((r["type"], r["rank"], r["length"]) for r in response.json()["readings"])


@pytest.mark.parametrize(
    ("ruleset", "body", "valid", "beats"),
    [
        ("gandengyan", {"cards": ["5H"], "previous": ["4S"]}, True, True),
        ("gandengyan", {"cards": ["6H"], "previous": ["4S"]}, True, False),
        ("gandengyan", {"cards": ["2H"], "previous": ["2S"]}, True, False),
        ("gandengyan", {"cards": ["AH", "SJ"], "previous": ["KS", "KD"]}, True, True),
        ("gandengyan", {"cards": ["3H", "3D", "3S", "3C"], "previous": ["2S", "2D", "BJ"]},
         True, True),
        ("gandengyan", {"cards": ["SJ", "BJ"]}, False, None),
        ("gandengyan", {"cards": ["9H"], "previous": ["8S", "9S", "10S"]}, True, False),
        ("510k", {"cards": ["2H"], "previous": ["5S"]}, True, True),
        ("510k", {"cards": ["5H", "5D", "5S", "5C"], "previous": ["2H", "2D", "2S", "2C"]},
         True, False),
        ("510k", {"cards": ["8H", "8D", "8S", "8C", "5H"]}, False, None),
        ("510k", {"cards": ["6H", "6D", "6S", "7H", "7D", "7S"],
                  "previous": ["5H", "5D", "5S", "6C", "6C", "6H", "9S", "JD"]}, True, True),
    ],
)
def test_evaluate(post, ruleset, body, valid, beats):
    response = post(ruleset, "evaluate", body)
    assert response.status_code == 200, response.json()
    data = response.json()
    assert data["valid"] is valid
    assert data["beats_previous"] is beats
    if not valid:
        assert data["readings"] == []


def test_evaluate_lists_every_reading_of_jokers(post):
    response = post("gandengyan", "evaluate", {"cards": ["3H", "SJ", "BJ"]})
    assert ("bomb", "3", 3) in readings(response)
    assert ("straight", "3", 3) in readings(response)


def test_evaluate_names_a_previous_reading(post):
    body = {"cards": ["4H", "5H", "6H"], "previous": ["3S", "SJ", "BJ"]}
    ambiguous = post("gandengyan", "evaluate", body)
    assert ambiguous.status_code == 400
    assert ambiguous.json()["error"]["code"] == "ambiguous_previous"
    body["previous_reading"] = {"type": "straight", "rank": "3", "length": 3}
    assert post("gandengyan", "evaluate", body).json()["beats_previous"] is True
    body["previous_reading"] = {"type": "bomb", "rank": "3", "length": 3}
    assert post("gandengyan", "evaluate", body).json()["beats_previous"] is False


@pytest.mark.parametrize(
    ("ruleset", "body"),
    [
        ("gandengyan", {"cards": ["8H", "8H"]}),
        ("gandengyan", {"cards": ["1H"]}),
        ("gandengyan", {"cards": [7]}),
        ("gandengyan", {"cards": "8H"}),
        ("gandengyan", {}),
        ("gandengyan", {"cards": ["8H"], "options": {"decks": 3}}),
        ("gandengyan", {"cards": ["8H"], "options": {"colour": "red"}}),
        ("gandengyan", {"cards": ["8H"], "previous": ["8S", "9D"]}),
        ("gandengyan", {"cards": ["8H"], "previous": ["7S"],
                        "previous_reading": {"type": "pair", "rank": "7", "length": 2}}),
        ("510k", {"cards": ["3H"]}),
        ("510k", {"cards": ["SJ"]}),
        ("510k", {"cards": ["5H", "5H", "5H"]}),
        ("510k", {"cards": ["5H"], "options": {"base_score": 11}}),
    ],
)
def test_evaluate_refuses_bad_input_with_a_code(post, ruleset, body):
    response = post(ruleset, "evaluate", body)
    assert response.status_code == 400
    assert response.json()["error"]["code"]


def test_unknown_ruleset_is_404(post):
    assert post("poker", "evaluate", {"cards": ["8H"]}).status_code == 404
    assert post("poker", "settle", {}).status_code == 404


def test_gandengyan_settle(post):
    body = {"options": {"players": 4, "decks": 1}, "winner": 0, "remaining": [0, 2, 5, 1],
            "played_any": [True, True, True, False], "forfeited": [False] * 4, "bombs": [3, 4]}
    response = post("gandengyan", "settle", body)
    assert response.status_code == 200
    assert response.json()["deltas"] == [112, -16, -80, -16]
    assert response.json()["breakdown"][2] == {
        "seat": 2, "cards_left": 5, "doubled": True, "bomb_factor": 8, "delta": -80
    }


def test_510k_settle(post):
    body = {"options": {"players": 4}, "banker": None, "teams": [[0, 2], [1, 3]],
            "finish_order": [0, 1, 2], "captured": [60, 40, 50, 50],
            "xi_bombs": [[], [{"rank": "8", "count": 5}], [], []]}
    data = post("510k", "settle", body).json()
    assert data["deltas"] == [0, 2, 0, -2]
    assert data["settlement"] == [1, -1, 1, -1]
    assert data["xi"] == [-1, 3, -1, -1]
    assert data["level"] == "normal"
    assert data["winner_seats"] == [0, 2]


@pytest.mark.parametrize(
    ("ruleset", "body"),
    [
        ("gandengyan", {"options": {"players": 4}, "winner": 0, "remaining": [0, 1, 1],
                        "played_any": [True] * 4, "forfeited": [False] * 4}),
        ("gandengyan", {"options": {"players": 4, "decks": 1}, "winner": 0,
                        "remaining": [0, 1, 1, 1], "played_any": [True] * 4,
                        "forfeited": [False] * 4, "bombs": [6]}),
        ("gandengyan", {"winner": "x"}),
        ("510k", {"teams": [[0, 2], [2, 3]], "finish_order": [0, 1, 2],
                  "captured": [60, 40, 50, 50]}),
        ("510k", {"teams": [[0, 2], [1, 3]], "finish_order": [0, 1, 2],
                  "captured": [60, 40, 50, 55]}),
        ("510k", {"teams": [[0, 2], [1, 3]], "finish_order": [0, 1, 2],
                  "captured": [160, 40, 50, 50]}),
        ("510k", {"teams": [[0, 2], [1, 3]], "finish_order": [0, 1, 2],
                  "captured": [60, 40, 50, 50], "xi_bombs": [[{"rank": "8", "count": 9}],
                                                             [], [], []]}),
        ("510k", {"teams": [[0, 2], [1, 3]], "finish_order": [0, 1, 2],
                  "captured": [60, 40, 50, 50], "xi_bombs": [[{"rank": "3", "count": 5}],
                                                             [], [], []]}),
    ],
)
def test_settle_refuses_inconsistent_input(post, ruleset, body):
    response = post(ruleset, "settle", body)
    assert response.status_code == 400
    assert response.json()["error"]["code"]


def test_the_rulesets_are_listed_with_their_options():
    response = APIClient().get("/api/v1/rules/")
    assert response.status_code == 200
    listed = {r["name"]: r for r in response.json()}
    assert {"gandengyan", "510k"} <= set(listed)  # the tests register one more
    five_ten_k = listed["510k"]
    assert five_ten_k["title"] == {"en": "510K", "zh": "五十K"}
    assert five_ten_k["players"] == [4, 2]
    rounds = five_ten_k["options"]["properties"]["rounds"]
    assert (rounds["minimum"], rounds["maximum"], rounds["default"]) == (1, 100, 8)
    assert listed["gandengyan"]["options"]["properties"]["decks"]["enum"] == [1, 2]


def test_every_option_is_labelled_for_people_with_the_tables_words():
    listed = {r["name"]: r for r in APIClient().get("/api/v1/rules/").json()}
    for ruleset in listed.values():
        assert set(ruleset["labels"]) == set(ruleset["options"]["properties"])
        assert all(set(o["label"]) == {"en", "zh"} for o in ruleset["labels"].values())
    dry = listed["510k"]["labels"]["dry"]
    assert dry["label"] == {"en": "Dry levels", "zh": "干"}
    assert dry["values"]["half"] == {"en": "half-dry", "zh": "半干"}  # as a table describes it
    assert listed["gandengyan"]["labels"]["decks"]["values"] == {}  # a number names itself
    assert listed["highcard"]["labels"]["rounds"]["label"] == {"en": "Rounds", "zh": "局数"}
