"""510k's bots: the `normal` heuristic, the game `hard` searches, and the referee's sides."""

from bots.strategies import register
from bots.strategies.five_ten_k import normal, search, sides

register("510k", normal.choose, search.GAME, sides.partners)
