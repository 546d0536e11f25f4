"""Gandengyan `hard`: no bomb without a threat, and the sure wins `normal` sees are kept."""

import random

from bots.strategies import observe
from bots.strategies.gandengyan import normal
from bots.strategies.gandengyan.search import GAME as game
from bots.strategies.gandengyan.search import seen_in
from bots.strategies.search import Budget
from games.engine.actions import Pass, Play
from games.engine.cards import RANK_INDEX, RANK_OF, TWO
from games.engine.combos import Reading
from games.engine.rulesets.gandengyan.observation import observe as gandengyan_observe
from tests.bots.support import decide, level
from tests.bots.test_gandengyan_normal import rest
from tests.engine.gandengyan_support import RULES, act, cards, playing

FAR = "3C 5C 7C 9C 10C"
AWAY = "3S 5S 7S 9S 10S"
OTHER = "4D 6D 8D QD KD"
ANY_FIVE = Reading("single", RANK_INDEX["5"], 1)


def hard(state, seed: int = 0):
    return decide(level(RULES, "hard", Budget(samples=24, ms=None)), RULES, state,
                  random.Random(seed))


def test_no_bomb_early_without_a_threat():
    hand = "JS JH JD BJ 4C 8H"
    for seed in range(3):
        state = playing(hand, FAR, AWAY, OTHER, pile=rest(hand, FAR, AWAY, OTHER, "5H"),
                        table=[(3, "5H")])
        action = hard(state, seed)
        assert getattr(action, "reading", None) is None or action.reading.type != "bomb"


def test_the_two_and_joker_win_is_kept():
    # Every other card was played: no bomb can beat the 2, the draw pairs with the joker.
    state = playing("2H BJ", FAR, AWAY, OTHER, pile="8S 6S", table=[(3, "KS")])
    assert hard(state).cards == cards("2H")


def test_samples_agree_with_the_passes_seen():
    # Seat 1 led the 5; seats 2 and 3 passed it. Players answer when they can, so neither holds
    # a 6 or a 2. A deal drawn at random gives one of them a 6 or a 2 five times in six; the
    # search's deals weigh each hand by how well it explains the passes.
    hand = "3H 9D QS 4C 8H"
    first = "5H 6D 8D QD KD"
    state = playing(hand, first, FAR, AWAY, pile=rest(hand, first, FAR, AWAY), to_act=1)
    state = state._replace(round=state.round._replace(leader=1))
    state = act(state, 1, Play(cards("5H"), ANY_FIVE))
    state = act(act(state, 2, Pass()), 3, Pass())
    seen = observe("gandengyan", state, 0)
    rng = random.Random(3)
    answers = {RANK_INDEX["6"], TWO}
    wrong = 0
    for _ in range(50):
        hands = game.sample(seen, rng).round.hands
        wrong += any({RANK_OF[c] for c in hands[seat]} & answers for seat in (2, 3))
    assert wrong <= 5


def test_the_rollouts_see_what_normal_sees_at_a_bots_turn():
    # The rollouts build normal's view of a seat straight from the state: it must be the one a
    # bot's turn builds from the seat's whole observation, at every step of whole rounds.
    for seed, (decks, players) in enumerate([(1, 4), (2, 5), (2, 6)]):
        rng = random.Random(seed)
        state = RULES.start_round(RULES.new_match(RULES.parse_options(
            {"decks": decks, "players": players}), [False] * players), f"seen-{seed}")
        while not RULES.round_over(state):
            seat = RULES.to_act(state)
            assert seen_in(state, seat) == normal.seen_of(gandengyan_observe(state, seat))
            state = act(state, seat, rng.choice(RULES.legal_actions(state, seat)))
