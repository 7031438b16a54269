"""A Study in Emerald, 1st edition (2013): 12 cities on a map, War and Revolution tracks, double agents."""

from pbem.games.emerald1.rules import RULES

__all__ = ["RULES"]
