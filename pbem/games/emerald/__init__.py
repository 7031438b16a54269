"""A Study in Emerald (2nd edition): the rules engine. ``RULES`` satisfies ``events.rules.Rules``."""

from pbem.games.emerald.rules import RULES

__all__ = ["RULES"]
