"""What the round's log tells the hard bot of the hidden hands."""

import random
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.strategies import observe
from bots.strategies.gandengyan import normal
from bots.strategies.gandengyan.belief import MISS, Belief, moments
from games.engine.actions import Pass, Play
from games.engine.cards import RANK_OF, TWO
from games.engine.rulesets.gandengyan.sampling import sample_state
from games.engine.rulesets.gandengyan.state import sort_hand
from tests.bots.test_gandengyan_normal import rest
from tests.engine.gandengyan_support import RULES, act, cards, playing, reading

FAR = "3C 5C 7C 9C 10C"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([4, 5, 6]),
       decks=st.sampled_from([1, 2]), steps=st.integers(0, 120))
def test_the_true_hands_of_normal_players_explain_all_they_did(seed, players, decks, steps):
    # Replayed from the log, every action since an opponent's last draw is the one `normal`
    # makes on the hand it truly holds: the replay rebuilds exactly what it saw then, the passes
    # it remembered from the round's log included (each seat reads the log, as at a table).
    state = RULES.new_match(RULES.parse_options({"players": players, "decks": decks}),
                            [False] * players)
    state = RULES.start_round(state, f"belief-{seed}")
    rng = random.Random(seed)
    heard = []  # the round's events, as a bot's turn reads them
    for _ in range(steps):
        if RULES.round_over(state):
            break
        to_act = RULES.to_act(state)
        action = RULES.forced_action(state) or normal.choose(
            observe("gandengyan", RULES.remember(state, heard, whole=True), to_act), rng)
        state, events = RULES.apply(state, to_act, action)
        heard += events
    if RULES.round_over(state):
        return
    seat = RULES.to_act(state)
    belief = Belief(observe("gandengyan", RULES.remember(state, heard, whole=True), seat))
    rnd = state.round
    assert moments(belief.seen) is not None
    for other in belief.moments:
        assert other != seat
        if not rnd.forfeited[other]:
            assert belief.weight(other, rnd.hands[other]) == 1.0


def _five_led_and_passed():
    """Seat 1 led the 5 and seat 2 (holding FAR) passed; seat 3 to answer."""
    hand = "3H 9D QS 4C 8H"
    first, last = "5H 6D 8D QD KD", "3S 5S 7S 9S 10S"
    state = playing(hand, first, FAR, last, pile=rest(hand, first, FAR, last), to_act=1)
    state = state._replace(round=state.round._replace(leader=1))
    state = act(state, 1, Play(cards("5H"), reading("single", "5", 1)))
    return act(state, 2, Pass())


def test_a_hand_that_would_have_answered_is_weighed_down():
    # A hand with a 6 to shed would have answered the 5.
    belief = Belief(observe("gandengyan", _five_led_and_passed(), 3))
    assert belief.weight(2, sort_hand(cards(FAR))) == 1.0
    assert belief.weight(2, sort_hand(cards("6S 8S 10D QC AD"))) == MISS


def test_a_hand_is_accepted_as_often_as_its_weight_says():
    seen = observe("gandengyan", _five_led_and_passed(), 3)
    rng = random.Random(2)
    trials = 4000
    explains = sort_hand(cards(FAR))
    answers = sort_hand(cards("6S 8S 10D QC AD"))
    assert all(Belief(seen).accepts(2, explains, rng) for _ in range(50))
    # A fresh belief each time: the hand is replayed, not looked up.
    kept = sum(Belief(seen).accepts(2, answers, rng) for _ in range(trials))
    assert 0.25 * MISS * trials <= kept <= 2 * MISS * trials


def test_a_log_that_does_not_account_for_the_hands_is_not_read():
    # A state saved before the log was kept: the trick shows a play the log never saw.
    state = playing("3H 9D QS", FAR, "3S 5S 7S 9S 10S", "4D 6D 8D QD KD", table=[(1, "5H")])
    seen = observe("gandengyan", state, 0)
    assert moments(seen) is None
    assert Belief(seen).moments == {}


class _Stub(Belief):
    """Weights for the test below: seat 2's hands holding a 2 are a fifth as likely."""

    def weight(self, seat, hand):
        return 0.2 if seat == 2 and any(RANK_OF[c] == TWO for c in hand) else 1.0

    def accepts(self, seat, hand, rng):
        return rng.random() < self.weight(seat, hand)


def test_a_deal_keeps_each_hand_in_proportion_to_its_weight():
    seen = observe("gandengyan", _five_led_and_passed(), 3)
    belief = _Stub(seen)
    assert set(belief.moments) == {1, 2}
    rng = random.Random(5)
    deals = 600
    held = sum(any(RANK_OF[c] == TWO for c in belief.deal(sample_state(seen, rng), rng)
                   .round.hands[2]) for _ in range(deals))
    unseen = seen.unseen
    # Dealt uniformly, five of the cards still out hold a 2 this often:
    out = sum(unseen)
    uniform = 1 - comb(out - unseen[TWO], 5) / comb(out, 5)
    expected = uniform * 0.2 / (uniform * 0.2 + 1 - uniform)
    assert abs(held / deals - expected) < 0.06
