"""Nanty Narking: the rules engine. ``RULES`` satisfies ``events.rules.Rules``."""

from pbem.games.nanty.rules import RULES

__all__ = ["RULES"]
