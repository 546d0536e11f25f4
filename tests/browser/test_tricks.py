"""The trick the felt keeps once it is taken (web/static/web/js/table/tricks.js), run in Chromium
on events made here: the trick taken last in this round, the one that ended the last round
until the next lead, and nothing once a trick is led."""

import pytest


def play(seat, ids, round_=2):
    return {"type": "play", "seat": seat, "round": round_,
            "cards": [{"id": i, "code": "3S"} for i in ids],
            "reading": {"type": "single", "rank": "3", "length": len(ids)}}


def event(kind, round_=2, **data):
    return {"type": kind, "round": round_, **data}


def view(round_, trick=()):
    return {"state": {"round": round_, "trick": list(trick)}}


@pytest.fixture
def last_trick(open_page):
    page = open_page()

    def read(view, events):
        return page.evaluate(
            """async ([view, events]) => {
                 const { lastTrick } = await import('/static/web/js/table/tricks.js');
                 const taken = lastTrick(view, events);
                 const plays = taken && taken.plays.map(p => [p.seat, p.cards.map(c => c.id),
                                                               p.latest]);
                 return taken && {...taken, plays};
               }""", [view, events])

    return read


TAKEN = [play(1, [4]), event("pass", seat=2), play(3, [9]), event("pass", seat=0),
         event("pass", seat=1), event("pass", seat=2), event("trick_won", seat=3)]


def test_the_trick_taken_last_in_the_round(last_trick):
    assert last_trick(view(2), [event("round_started"), *TAKEN]) == {
        "plays": [[1, [4], False], [3, [9], True]], "winner": 3, "round": 2, "ended": False}


def test_a_round_that_ended_on_a_play_shows_it_until_the_next_lead(last_trick):
    # 干瞪眼: the play that empties a hand ends the round; the next one is dealt in the same write.
    events = [*TAKEN, play(3, [7, 8]), event("pass", seat=0), play(1, [12]),
              event("round_end", winner=1), event("round_settled"), event("round_started", 3)]
    assert last_trick(view(3), events) == {
        "plays": [[3, [7, 8], False], [1, [12], True]], "winner": 1, "round": 2, "ended": True}
    assert last_trick(view(3, [{"seat": 1}]), [*events, play(1, [5], 3)]) is None


def test_a_round_that_ended_on_a_trick_taken_names_who_took_it(last_trick):
    # 510K: the last trick is taken, then the round ends.
    events = [play(0, [30]), play(2, [31]), event("trick_won", seat=2), event("round_end"),
              event("round_settled"), event("round_started", 3), event("bid", 3, seat=1)]
    assert last_trick(view(3), events) == {
        "plays": [[0, [30], False], [2, [31], True]], "winner": 2, "round": 2, "ended": True}


def test_nothing_is_kept_from_two_rounds_back_or_while_a_trick_is_led(last_trick):
    events = [*TAKEN, event("round_end", winner=3), event("round_started", 3)]
    assert last_trick(view(4), events) is None
    assert last_trick(view(2, [{"seat": 1}]), [*TAKEN, play(3, [2])]) is None
    assert last_trick(view(2), [*TAKEN[:3]]) is None  # a play and no trick taken: it is in play
