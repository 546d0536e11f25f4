"""Gandengyan's bots: the `normal` heuristic and the game `hard` searches."""

from bots.strategies import register
from bots.strategies.gandengyan import normal, search

register("gandengyan", normal.choose, search.GAME)
