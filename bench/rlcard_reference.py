"""RLCard's Dou Dizhu engine as a reference point, measured in the same run as ours.

Optional: needs the `bench` extra (`pip install -e .[bench]`). Streams for bench/engine.py, which
times them in blocks alternating with ours: raw random whole games (3 players, 54 cards; a
uniformly random legal action each step, as our playouts do) and the listing of the landlord's
moves on its 20-card opening lead.
"""

import random
import time


def available() -> bool:
    try:
        import rlcard  # noqa: F401
    except ImportError:
        return False
    return True


def game_stream(seed: int):
    """Random whole games, one per `next()` (bench/engine.py times them in blocks)."""
    from rlcard.games.doudizhu.game import DoudizhuGame

    rng = random.Random(seed)
    game = DoudizhuGame()
    game.np_random.seed(seed)
    while True:
        state, _ = game.init_game()
        while not game.is_over():
            state, _ = game.step(rng.choice(state["actions"]))
        yield


def lead_listing_stream(seed: int):
    """One timed listing of the landlord's moves on its 20-card opening lead per `next()`, in
    seconds. The judger caches each hand's moves; they are listed from the hand, uncached, as
    ours are."""
    from rlcard.games.doudizhu.game import DoudizhuGame
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import cards2str

    game = DoudizhuGame()
    game.np_random.seed(seed)
    while True:
        game.init_game()
        hand = cards2str(game.players[game.round.current_player].current_hand)
        began = time.perf_counter()
        DoudizhuJudger.playable_cards_from_hand(hand)
        yield time.perf_counter() - began
