"""RLCard's Dou Dizhu engine as a reference point, measured in the same run as ours.

Optional: needs the `bench` extra (`pip install -e .[bench]`). Figures: raw random whole games per
second (3 players, 54 cards; a uniformly random legal action each step, as our playouts do) and
the time to list the landlord's moves on its 20-card opening lead.
"""

import random
import statistics
import time


def available() -> bool:
    try:
        import rlcard  # noqa: F401
    except ImportError:
        return False
    return True


def run(seconds: float = 5.0, leads: int = 300, seed: int = 7) -> dict:
    from rlcard.games.doudizhu.game import DoudizhuGame
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import cards2str

    rng = random.Random(seed)
    game = DoudizhuGame()
    game.np_random.seed(seed)
    games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state, _ = game.init_game()
        while not game.is_over():
            state, _ = game.step(rng.choice(state["actions"]))
        games += 1
    games_per_second = games / (time.perf_counter() - started)

    lead_times = []
    for _ in range(leads):
        game.init_game()
        hand = cards2str(game.players[game.round.current_player].current_hand)
        # The judger caches each hand's moves; list them from the hand, uncached, as we do.
        began = time.perf_counter()
        DoudizhuJudger.playable_cards_from_hand(hand)
        lead_times.append(time.perf_counter() - began)
    return {
        "games_per_second": games_per_second,
        "lead_listing_median_ms": statistics.median(lead_times) * 1000,
    }


if __name__ == "__main__":
    if available():
        print(run())
    else:
        print("rlcard is not installed: pip install -e '.[bench]'")
