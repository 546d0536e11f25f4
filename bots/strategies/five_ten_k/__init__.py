"""510k's bots: the `normal` heuristic, the game `hard` searches, the referee's sides and the
`greedy` reference policy."""

from bots.strategies import register
from bots.strategies.five_ten_k import greedy, normal, search, sides

register("510k", normal.choose, search.GAME, sides.partners, greedy.choose)
