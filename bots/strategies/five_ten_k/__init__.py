"""510k's bots: the `normal` heuristic, the game `hard` searches, the referee's sides and the
`greedy` reference policy."""

from bots.strategies import register
from bots.strategies.five_ten_k import faults, greedy, normal, search, sides
from games.engine.rulesets.five_ten_k.observation import observe

register("510k", observe, normal.choose, search.GAME, sides.partners, greedy.choose,
         faults.faults)
