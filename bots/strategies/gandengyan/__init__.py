"""Gandengyan's bots: the `greedy` floor, the `normal` heuristic and the game `hard` searches."""

from bots.strategies import register
from bots.strategies.gandengyan import faults, greedy, normal, search
from games.engine.rulesets.gandengyan.observation import observe

register("gandengyan", observe, normal.choose, search.GAME, greedy=greedy.choose,
         faults=faults.faults)
