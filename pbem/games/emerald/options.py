"""The options of A Study in Emerald (2nd edition), in words (``pbem.games.options``); the first choice is the default."""

from __future__ import annotations

from pbem.games.options import Choice, Option

OPTIONS = (
    Option("free_actions_after_last_action", "Free card actions after a turn's last action", (
        Choice("yes", "Allowed: after your last action you may still use your cards' free actions", True),
        Choice("no", "Not allowed: a turn ends with its last action", False))),
)
